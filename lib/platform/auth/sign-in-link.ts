import { createElement } from "react";
import type { Db } from "@/db";
import { SignInEmail } from "@/lib/platform/email/templates/sign-in";
import { admitPublicMail } from "@/lib/platform/ratelimit/mail";
import { queueEmail } from "@/lib/platform/pipeline/channels/email/queue";

/**
 * Queues the magic link Auth.js made for `to` (its `sendVerificationRequest`), within the
 * public-mail limits: past them nothing is sent and false comes back, while Auth.js shows
 * "check your e-mail" all the same, so the form tells nobody which addresses were asked for.
 * `client` is the requester's address (lib/platform/ratelimit/client-ip.ts).
 */
export async function sendSignInLink(db: Db, { to, url, client }: { to: string; url: string; client: string | null }): Promise<boolean> {
  const host = new URL(url).host;
  return db.transaction(async (tx) => {
    if (!(await admitPublicMail(tx, to, client))) return false;
    await queueEmail(tx, {
      kind: "sign_in",
      to,
      subject: `Sign in to Certify`,
      react: createElement(SignInEmail, { url, host }),
      links: [url],
    });
    return true;
  });
}
