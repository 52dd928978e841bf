import { eq, sql } from "drizzle-orm";
import { Resend } from "resend";
import { z } from "zod";
import type { Db } from "@/db";
import { emailMessages, type EmailDeliveryStatus } from "@/db/schema";
import { isStorableText } from "@/lib/kernel/values";
import { config } from "@/lib/kernel/config/config";
import { AppError } from "@/lib/kernel/errors";

/**
 * Resend's delivery events (signed webhooks, Svix scheme) → each message's delivery status.
 * Route: POST /api/webhooks/resend. See docs/webhooks.md, "Resend delivery events".
 */

/**
 * RESEND_WEBHOOK_SECRET (default unset; lib/kernel/config/config.ts checks its shape, `whsec_…`, at start).
 * Unset → the route does not exist (404). Set but not shaped like a signing secret → the
 * configuration is refused (at start; a request meanwhile answers 503), never "anything goes".
 */
export function resendWebhookSecret(): string | undefined {
  return config().email.webhookSecret;
}

/** The Svix headers of a request, as Resend sends them. */
export type SvixHeaders = { id: string | null; timestamp: string | null; signature: string | null };

export function svixHeaders(headers: Headers): SvixHeaders {
  return { id: headers.get("svix-id"), timestamp: headers.get("svix-timestamp"), signature: headers.get("svix-signature") };
}

// Verifying needs no API key, but the SDK's constructor demands one: this client never makes a request.
let verifier: Resend | undefined;
const webhookVerifier = () => (verifier ??= new Resend("re_webhook_verification_only"));

const unauthorized = (why: string) => new AppError("unauthorized", `The webhook was refused: ${why}.`);

/**
 * Checks the Svix signature over the exact bytes received (HMAC-SHA256 of
 * `${id}.${timestamp}.${body}`) and that the timestamp is within 5 minutes of now, through the
 * Resend SDK (`resend.webhooks.verify`, the standardwebhooks implementation). Any failure →
 * 401; a correctly signed body that is not JSON → 400.
 */
export function verifyResendWebhook(body: string, headers: SvixHeaders, secret: string): unknown {
  const { id, timestamp, signature } = headers;
  if (!id || !timestamp || !signature) throw unauthorized("the svix-id, svix-timestamp and svix-signature headers are required");
  if (!/^\d{1,12}$/.test(timestamp)) throw unauthorized("svix-timestamp is not a Unix time");
  try {
    return webhookVerifier().webhooks.verify({ payload: body, headers: { id, timestamp, signature }, webhookSecret: secret });
  } catch (error) {
    if (error instanceof SyntaxError) throw new AppError("invalid_json", "The webhook body is not valid JSON.");
    const message = error instanceof Error ? error.message : "";
    if (/timestamp/i.test(message)) throw unauthorized("its timestamp is more than 5 minutes from now (stale or replayed)");
    throw unauthorized("the signature does not match");
  }
}

/** The part of Resend's e-mail events we read; everything else is ignored. */
const resendEvent = z.object({
  type: z.string(),
  created_at: z.string().optional(),
  data: z
    .object({
      email_id: z.string().optional(),
      bounce: z.object({ message: z.string().optional(), type: z.string().optional(), subType: z.string().optional() }).optional(),
      suppressed: z.object({ message: z.string().optional(), type: z.string().optional() }).optional(),
    })
    .optional(),
});
type ResendEvent = z.infer<typeof resendEvent>;

/**
 * Which event wins when several reach one message, in any order: the higher rank, and among
 * equals the later event. delivered outranks delivery_delayed (a delay that resolved);
 * complained and bounced outrank delivered (a spam report or an asynchronous bounce comes
 * after delivery), and bounced outranks everything (the address needs correcting). The state
 * is the maximum of what arrived, so duplicates and reordering change nothing.
 */
export const deliveryPrecedence: readonly EmailDeliveryStatus[] = ["delivery_delayed", "delivered", "complained", "bounced"];
const rankOf = (status: EmailDeliveryStatus) => deliveryPrecedence.indexOf(status) + 1;

const statusOfEvent: Record<string, EmailDeliveryStatus> = {
  "email.delivered": "delivered",
  "email.delivery_delayed": "delivery_delayed",
  "email.bounced": "bounced",
  "email.complained": "complained",
  // Resend did not send because the address is on its suppression list (an earlier bounce or complaint): as good as a bounce.
  "email.suppressed": "bounced",
};

export type ProviderEventOutcome =
  /** The message's delivery status changed. */
  | "updated"
  /** Known message; a duplicate, an older or lower-ranked event, or email.sent (our status already says sent). */
  | "unchanged"
  /** No message has this provider id (another app on the same Resend account, or a deleted row). */
  | "unknown_message"
  /** An event type we do not track. */
  | "ignored";

const MAX_DETAIL = 1000;

/** Provider text as we store it: no NUL or unpaired surrogate, bounded. */
function cleanText(value: string | undefined): string {
  if (!value) return "";
  const text = isStorableText(value) ? value : value.replaceAll("\u0000", "").toWellFormed();
  return text.trim().slice(0, MAX_DETAIL);
}

/** The reason a trainer reads: "Permanent bounce (General): <the receiving server's message>". */
function detailOf(event: ResendEvent): string | null {
  if (event.type === "email.bounced") {
    const bounce = event.data?.bounce;
    const type = cleanText(bounce?.type);
    const sub = cleanText(bounce?.subType);
    const message = cleanText(bounce?.message);
    return `${type ? `${type} bounce` : "Bounce"}${sub ? ` (${sub})` : ""}${message ? `: ${message}` : ""}`.slice(0, MAX_DETAIL);
  }
  if (event.type === "email.suppressed") {
    const message = cleanText(event.data?.suppressed?.message);
    return `Suppressed by Resend (an earlier bounce or complaint)${message ? `: ${message}` : ""}`.slice(0, MAX_DETAIL);
  }
  return null;
}

/** The event's own time (`created_at`); the signed Svix timestamp when it is missing or unreadable. */
function eventTime(event: ResendEvent, signedAt: string): Date {
  const at = event.created_at ? new Date(event.created_at) : undefined;
  return at && !Number.isNaN(at.getTime()) ? at : new Date(Number(signedAt) * 1000);
}

const rankSql = sql.raw(
  `(case "delivery_status" ${deliveryPrecedence.map((status, index) => `when '${status}' then ${index + 1}`).join(" ")} else 0 end)`,
);

/**
 * Records one verified event on the message whose provider id it names. One conditional
 * UPDATE: it applies only when the event outranks the stored one (or ties it and is later),
 * so a retried delivery (same svix-id) or a late, lower-ranked event changes nothing, also
 * when two arrive at once (the row lock orders them; the loser re-checks the condition).
 */
export async function recordProviderEvent(db: Db, payload: unknown, signedAt: string): Promise<ProviderEventOutcome> {
  const event = resendEvent.parse(payload);
  const tracked = event.type === "email.sent" || event.type in statusOfEvent;
  if (!tracked) return "ignored";
  const providerId = event.data?.email_id;
  if (!providerId || !isStorableText(providerId) || providerId.length > 200) {
    throw new AppError("validation_failed", "The event names no e-mail.", { fields: [{ field: "data.email_id", message: "Required." }] });
  }
  const status = statusOfEvent[event.type];
  if (status) {
    const rank = rankOf(status);
    const at = eventTime(event, signedAt);
    const updated = await db
      .update(emailMessages)
      .set({ deliveryStatus: status, deliveryDetail: detailOf(event), deliveryUpdatedAt: at })
      .where(
        sql`${emailMessages.providerId} = ${providerId} and (
          ${emailMessages.deliveryStatus} is null
          or ${rankSql} < ${rank}
          or (${rankSql} = ${rank} and ${emailMessages.deliveryUpdatedAt} < ${at.toISOString()}::timestamptz)
        )`,
      )
      .returning({ id: emailMessages.id });
    if (updated.length) return "updated";
  }
  const [known] = await db.select({ id: emailMessages.id }).from(emailMessages).where(eq(emailMessages.providerId, providerId)).limit(1);
  return known ? "unchanged" : "unknown_message";
}

/**
 * The whole receipt of one webhook: the secret (unset → 404), the signature and timestamp
 * (→ 401), then the event. The body must be the exact bytes received.
 */
export async function receiveResendWebhook(db: Db, body: string, headers: SvixHeaders, secret: string): Promise<ProviderEventOutcome> {
  const payload = verifyResendWebhook(body, headers, secret);
  return recordProviderEvent(db, payload, headers.timestamp!);
}

/** Unset secret → the route answers as if it did not exist. */
export function requireResendWebhookSecret(): string {
  const secret = resendWebhookSecret();
  if (!secret) throw new AppError("not_found", "Not found.");
  return secret;
}
