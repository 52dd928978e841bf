import { render } from "@react-email/components";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { ReactElement } from "react";
import { Resend } from "resend";
import type { Db } from "@/db";
import { emailMessages, type EmailMessage } from "@/db/schema";
import { notifyOutbox } from "@/lib/events/publish";
import { newId } from "@/lib/ids";
import { claimDue } from "@/lib/jobs/claim";
import { EMAIL_MAX_ATTEMPTS, emailRetryDelayMs } from "@/lib/jobs/schedule";
import { emailFrom, emailTransport } from "./config";

export type OutgoingEmail = {
  kind: string;
  to: string;
  subject: string;
  /** The text part; every mail has one. */
  text: string;
  /** Links the mail carries, printed to the log when the dev mailbox is used. */
  links?: string[];
  workspaceId?: string | null;
} & (
  /** The HTML part: a React Email element, or HTML already rendered (see personalize.ts). */
  { react: ReactElement } | { html: string }
);

let resendClient: Resend | undefined;

/** The real Resend SDK; RESEND_BASE_URL points it at a local fake in tests. */
export function resend(): Resend {
  resendClient ??= new Resend(process.env.RESEND_API_KEY);
  return resendClient;
}

/**
 * Queues e-mails in the caller's transaction (the outbox): if it rolls back nothing is
 * sent, if it commits an executor sends them. Several at once go out as one Resend batch.
 */
export async function queueEmails(tx: Db, emails: OutgoingEmail[]): Promise<EmailMessage[]> {
  if (emails.length === 0) return [];
  const transport = emailTransport();
  const values = await Promise.all(
    emails.map(async (email) => ({
      id: newId("msg"),
      workspaceId: email.workspaceId ?? null,
      kind: email.kind,
      to: email.to,
      from: emailFrom(),
      subject: email.subject,
      html: "html" in email ? email.html : await render(email.react),
      text: email.text,
      links: email.links ?? [],
      transport,
    })),
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

/** Claims due queued e-mails (SKIP LOCKED, leased), oldest first. */
export function claimDueEmails(db: Db, limit: number): Promise<string[]> {
  return claimDue(db, "email_messages", limit);
}

const RESEND_BATCH_MAX = 100;

/**
 * Sends claimed e-mails: the dev mailbox just records and logs them; Resend gets one call
 * per message or one batch call per 100. A failure leaves the messages queued for a later
 * try (idempotency keys make a retried send safe); after the last try they are dropped.
 */
export async function deliverEmails(db: Db, ids: string[]): Promise<{ sent: number; failed: number }> {
  if (ids.length === 0) return { sent: 0, failed: 0 };
  const messages = await db
    .select()
    .from(emailMessages)
    .where(and(inArray(emailMessages.id, ids), eq(emailMessages.status, "queued")));
  let sent = 0;
  let failed = 0;
  const mailbox = messages.filter((message) => message.transport === "mailbox");
  for (const message of mailbox) {
    console.log(`[mailbox] ${message.kind} to ${message.to}: ${message.subject}${message.links.map((link) => `\n  ${link}`).join("")}`);
  }
  if (mailbox.length) {
    await markSent(db, mailbox.map((message) => ({ id: message.id, providerId: null })));
    sent += mailbox.length;
  }
  for (const batch of await resendBatches(db, messages.filter((message) => message.transport === "resend"))) {
    const result = await sendThroughResend(batch.messages, batch.key);
    if (result.ok) {
      await markSent(db, batch.messages.map((message, index) => ({ id: message.id, providerId: result.ids[index] ?? null })));
      sent += batch.messages.length;
    } else {
      await markFailed(db, batch.messages, result.error);
      failed += batch.messages.length;
    }
  }
  return { sent, failed };
}

/**
 * Groups messages into Resend calls. A message that already went out in a batch goes again
 * in exactly that batch (same members, same order, same idempotency key), so a batch whose
 * answer was lost is not sent twice; new messages form new batches, whose key is stored
 * before the call.
 */
async function resendBatches(db: Db, messages: EmailMessage[]): Promise<{ key: string; messages: EmailMessage[] }[]> {
  const byId = [...messages].sort((a, b) => a.id.localeCompare(b.id));
  const batches = new Map<string, EmailMessage[]>();
  for (const message of byId.filter((m) => m.batchKey)) {
    batches.set(message.batchKey!, [...(batches.get(message.batchKey!) ?? []), message]);
  }
  const fresh = byId.filter((m) => !m.batchKey);
  for (let i = 0; i < fresh.length; i += RESEND_BATCH_MAX) {
    const chunk = fresh.slice(i, i + RESEND_BATCH_MAX);
    const key = chunk.length === 1 ? chunk[0].id : newId("batch");
    await db.update(emailMessages).set({ batchKey: key }).where(inArray(emailMessages.id, chunk.map((m) => m.id)));
    batches.set(key, chunk);
  }
  // A batch always goes out whole: its queued members, claimed now or not (same key, same bytes).
  const complete: { key: string; messages: EmailMessage[] }[] = [];
  for (const [key, group] of batches) {
    if (group.length === 1 && group[0].id === key) {
      complete.push({ key, messages: group });
      continue;
    }
    const members = await db.select().from(emailMessages).where(eq(emailMessages.batchKey, key));
    const pending = members.filter((m) => m.status === "queued").sort((a, b) => a.id.localeCompare(b.id));
    if (pending.length) complete.push({ key, messages: pending });
  }
  return complete;
}

type ResendOutcome = { ok: true; ids: (string | null)[] } | { ok: false; error: string };

async function sendThroughResend(chunk: EmailMessage[], key: string): Promise<ResendOutcome> {
  const payload = (message: EmailMessage) => ({
    from: message.from,
    to: message.to,
    subject: message.subject,
    html: message.html,
    text: message.text,
  });
  try {
    if (chunk.length === 1) {
      const { data, error } = await resend().emails.send(payload(chunk[0]), { idempotencyKey: key });
      return error ? { ok: false, error: `${error.name}: ${error.message}` } : { ok: true, ids: [data?.id ?? null] };
    }
    const { data, error } = await resend().batch.send(chunk.map(payload), { idempotencyKey: key });
    if (error) return { ok: false, error: `${error.name}: ${error.message}` };
    return { ok: true, ids: (data?.data ?? []).map((entry) => entry.id) };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}

/** Marks a sent batch in one statement (a Resend batch is up to 100 messages). */
async function markSent(db: Db, sent: { id: string; providerId: string | null }[]): Promise<void> {
  const rows = sql.join(
    sent.map(({ id, providerId }) => sql`(${id}::text, ${providerId}::text)`),
    sql`, `,
  );
  await db.execute(sql`
    update email_messages as m
    set status = 'sent', attempts = m.attempts + 1, provider_id = v.provider_id, sent_at = now(), locked_until = null
    from (values ${rows}) as v(id, provider_id)
    where m.id = v.id`);
}

async function markFailed(db: Db, messages: EmailMessage[], error: string): Promise<void> {
  await db.transaction(async (tx) => {
    for (const message of messages) {
      const attempt = message.attempts + 1;
      const dropped = attempt >= EMAIL_MAX_ATTEMPTS;
      await tx
        .update(emailMessages)
        .set({
          status: dropped ? "dropped" : "queued",
          attempts: attempt,
          lastError: error.slice(0, 500),
          lockedUntil: null,
          nextAttemptAt: sql`now() + ${emailRetryDelayMs(attempt)} * interval '1 millisecond'`,
        })
        .where(eq(emailMessages.id, message.id));
    }
    await notifyOutbox(tx);
  });
  console.error(`[email] ${messages.length} message(s) not sent: ${error}`);
}
