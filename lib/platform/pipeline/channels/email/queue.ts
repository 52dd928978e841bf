import { render, toPlainText } from "@react-email/components";
import type { ReactElement } from "react";
import type { Db } from "@/db";
import { type EmailMessage, emailMessages } from "@/db/schema";
import { newId } from "@/lib/kernel/ids";
import { notifyOutbox } from "@/lib/platform/pipeline/outbox/notify";
import { emailFrom, emailTransport } from "@/lib/kernel/config/email";
export type OutgoingEmail = {
  kind: string;
  to: string;
  subject: string;
  /**
   * The text part. Left out, it is generated from the HTML (`toPlainText` of React Email), so
   * the two parts cannot drift; personalize.ts hands it in already filled for each recipient.
   */
  text?: string;
  /** Links the mail carries, printed to the log when the dev mailbox is used. */
  links?: string[];
  workspaceId?: string | null;
  /** The test recipient or class invitation the mail is for: its e-mail status is shown to the trainer. */
  recipientId?: number;
  invitationId?: number;
} & (
  /** The HTML part: a React Email element, or HTML already rendered (see personalize.ts). */
  { react: ReactElement } | { html: string }
);

/**
 * Queues e-mails in the caller's transaction (the outbox): if it rolls back nothing is
 * sent, if it commits an executor sends them. Several at once go out as one Resend batch.
 */
export async function queueEmails(tx: Db, emails: OutgoingEmail[]): Promise<EmailMessage[]> {
  if (emails.length === 0) return [];
  const transport = emailTransport();
  const values = await Promise.all(
    emails.map(async (email) => {
      const html = "html" in email ? email.html : await render(email.react);
      return {
        id: newId("msg"),
        workspaceId: email.workspaceId ?? null,
        kind: email.kind,
        to: email.to,
        from: emailFrom(),
        subject: email.subject,
        html,
        text: email.text ?? toPlainText(html),
        links: email.links ?? [],
        recipientId: email.recipientId ?? null,
        invitationId: email.invitationId ?? null,
        transport,
      };
    }),
  );
  const rows: EmailMessage[] = [];
  for (let i = 0; i < values.length; i += 500) rows.push(...(await tx.insert(emailMessages).values(values.slice(i, i + 500)).returning()));
  await notifyOutbox(tx);
  return rows;
}

export async function queueEmail(tx: Db, email: OutgoingEmail): Promise<EmailMessage> {
  const [row] = await queueEmails(tx, [email]);
  return row;
}
