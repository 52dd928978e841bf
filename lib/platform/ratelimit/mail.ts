import { createHash } from "node:crypto";
import type { Db } from "@/db";
import { config } from "@/lib/kernel/config/config";
import { postgresWindowLimiter, type WindowRule } from "./window";

/**
 * Public forms that e-mail someone (sign-in links, competition self-enrolment, and any
 * "send my link again" form): per address, and per client address, sliding one-hour windows
 * shared by all those forms. 3 per address is enough to resend a sign-in link twice; 60 per
 * client address lets a classroom behind one NAT sign in together, while one machine
 * cannot spray more than that per hour over many addresses. `perClient` is the default of
 * PUBLIC_MAIL_PER_CLIENT (README), for a site where more people share one address.
 */
export const PUBLIC_MAIL_LIMIT = { perAddress: 3, perClient: 60, windowMs: 3_600_000 } as const;

/** The buckets of one public e-mail to `email` asked for from `client` (null: unknown). */
export function publicMailRules(email: string, client: string | null): WindowRule[] {
  // The address is hashed: the bucket table holds no e-mail addresses.
  const address = createHash("sha256").update(email.trim().toLowerCase()).digest("hex");
  return [
    { key: `mail:addr:${address}`, limit: PUBLIC_MAIL_LIMIT.perAddress, windowMs: PUBLIC_MAIL_LIMIT.windowMs },
    // Requests whose address cannot be read share one bucket rather than escape the limit.
    { key: `mail:ip:${client ?? "unknown"}`, limit: config().email.publicMailPerClient, windowMs: PUBLIC_MAIL_LIMIT.windowMs },
  ];
}

/**
 * Counts one public e-mail to `email` from `client`; false when either limit is reached
 * (then nothing is counted and the caller sends nothing — and answers exactly as if it had,
 * so the form tells nobody which addresses were asked for). Pass the transaction that
 * queues the mail, so that work which fails or is refused is not charged.
 */
export async function admitPublicMail(db: Db, email: string, client: string | null): Promise<boolean> {
  const decision = await postgresWindowLimiter(db).hit(publicMailRules(email, client));
  return decision.allowed;
}
