import { and, eq, inArray, sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db";
import { retryWhileDisconnected } from "@/db/transaction";
import { emailMessages, type EmailMessage } from "@/db/schema";
import { newId } from "@/lib/kernel/ids";
import { logger } from "@/lib/kernel/log";
import { claimDue } from "@/lib/platform/pipeline/outbox/claim";
import { notifyOutbox } from "@/lib/platform/pipeline/outbox/notify";
import { emailRetryDelayMs, leaseMs } from "@/lib/platform/pipeline/outbox/schedule";
import { devMailboxEnabled, emailRatePerSecond, emailRetryBudgetMs, resendTimeoutMs } from "@/lib/kernel/config/email";
import { holdPace, reserveSlot } from "./pacing";
import { sendToResend } from "./resend";

/** Claims due queued e-mails (SKIP LOCKED, leased), oldest first. */
export function claimDueEmails(db: Db, limit: number): Promise<string[]> {
  return claimDue(db, "email_messages", limit);
}

const RESEND_BATCH_MAX = 100;
/** The `provider_pacing` row of Resend: one pace for the API key, whichever instance calls. */
const RESEND_PACE = "resend";

/**
 * What one `deliverEmails` call came to.
 * - `sent`: accepted by the provider (or recorded in the dev mailbox);
 * - `failed`: not sent on this try and still queued (a transient error, a 429, or the shared
 *   pace was too far ahead): the caller should come back after `retryAfterMs`;
 * - `refused`: refused for good by the provider (status `failed`, the reason in `last_error`);
 * - `dropped`: the retry budget (EMAIL_RETRY_HOURS after queueing) ran out (status `dropped`).
 */
export type DeliveryResult = { sent: number; failed: number; refused: number; dropped: number; retryAfterMs?: number };

/**
 * Sends claimed e-mails: the dev mailbox just records and logs them; Resend gets one call
 * per message or one batch call per 100, each paced (a slot of the shared rate), under a
 * deadline and with an idempotency key that stays the batch's own across retries.
 * - accepted → `sent` (with permissive validation, a refused address is `failed` alone);
 * - 429 → the shared pace waits out Retry-After, the messages stay queued (not a try);
 * - 5xx, network error, timeout → queued again after an exponential backoff with jitter,
 *   until EMAIL_RETRY_HOURS after queueing, then `dropped` with the last reason;
 * - another 4xx (invalid address, unverified domain, bad key) → `failed` with its reason.
 */
export async function deliverEmails(db: Db, ids: string[]): Promise<DeliveryResult> {
  const result: DeliveryResult = { sent: 0, failed: 0, refused: 0, dropped: 0 };
  if (ids.length === 0) return result;
  const messages = await db
    .select()
    .from(emailMessages)
    .where(and(inArray(emailMessages.id, ids), eq(emailMessages.status, "queued")));
  const mailbox = messages.filter((message) => message.transport === "mailbox");
  for (const message of mailbox) logMailboxMessage(message);
  if (mailbox.length) {
    // The dev mailbox page shows what it kept; with the page off nobody ever reads it.
    await markSent(db, mailbox.map((message) => ({ id: message.id, providerId: null })), { keepBody: devMailboxEnabled() });
    result.sent += mailbox.length;
  }
  for (const batch of await resendBatches(db, messages.filter((message) => message.transport === "resend"))) {
    const step = await deliverBatch(db, batch);
    result.sent += step.sent;
    result.failed += step.failed;
    result.refused += step.refused;
    result.dropped += step.dropped;
    if (step.retryAfterMs !== undefined) result.retryAfterMs = Math.min(result.retryAfterMs ?? Infinity, step.retryAfterMs);
  }
  return result;
}

/**
 * The dev mailbox's printout: who the message is for and its links, so a developer can click
 * the sign-in or invitation link from the terminal. On purpose, the fields are not among
 * the names the logger redacts (`to`, `links`, …): showing them is the mailbox's point. It
 * only happens while the dev mailbox page is on (no RESEND_API_KEY, and not production
 * unless DEV_MAILBOX=true) — never with Resend, never in a production log otherwise, where
 * the line carries ids only.
 */
function logMailboxMessage(message: EmailMessage): void {
  if (!devMailboxEnabled()) {
    logger().info({ context: "mailbox", kind: message.kind, message_id: message.id }, "kept in the mailbox, not sent (no RESEND_API_KEY)");
    return;
  }
  logger().info({ context: "mailbox", kind: message.kind, message_id: message.id, recipient: message.to, subject: message.subject, open: message.links }, `mailbox: ${message.kind} to ${message.to}`);
}

/** A provider's reason, with any e-mail address in it replaced: logs carry ids, not addresses. */
function withoutAddresses(reason: string): string {
  return reason.replace(/[^\s@<>"'`,;:()]+@[^\s@<>"'`,;:()]+/g, "[address]").slice(0, 500);
}

/** The longest a claimed batch waits for its slot: well inside the lease, with the call's deadline after it. */
function maxPaceWaitMs(): number {
  return Math.max(500, Math.min(5_000, leaseMs() - resendTimeoutMs() - 2_000));
}

async function deliverBatch(db: Db, batch: { key: string; messages: EmailMessage[] }): Promise<DeliveryResult> {
  const { key, messages } = batch;
  const slot = await reserveSlot(db, RESEND_PACE, 1_000 / emailRatePerSecond(), maxPaceWaitMs());
  if (!slot.granted) {
    // The shared pace is booked further ahead than a claim may wait: hand the batch back
    // until its turn, untried (no call, no try counted).
    await requeue(db, messages, { delayMs: slot.retryInMs, countsAsTry: false, reason: null, budget: false });
    return { sent: 0, failed: messages.length, refused: 0, dropped: 0, retryAfterMs: slot.retryInMs };
  }
  if (slot.waitMs > 0) await sleep(slot.waitMs);
  const outcome = await sendToResend(messages, key);
  switch (outcome.kind) {
    case "accepted": {
      const refused = new Map(outcome.refused.map(({ index, reason }) => [index, reason]));
      const accepted = messages.flatMap((message, index) => (refused.has(index) ? [] : [{ id: message.id, providerId: outcome.ids[index] ?? null }]));
      if (accepted.length) await markSent(db, accepted, { keepBody: false });
      if (refused.size) await markRefused(db, [...refused].map(([index, reason]) => ({ id: messages[index].id, reason })));
      return { sent: accepted.length, failed: 0, refused: refused.size, dropped: 0 };
    }
    case "permanent":
      await markRefused(db, messages.map((message) => ({ id: message.id, reason: outcome.reason })));
      logger().error({ context: "email", count: messages.length, message_ids: messages.map((m) => m.id), reason: withoutAddresses(outcome.reason) }, "refused by Resend");
      return { sent: 0, failed: 0, refused: messages.length, dropped: 0 };
    case "rate_limited": {
      // Every instance's next reservation starts after the provider's wait.
      await holdPace(db, RESEND_PACE, outcome.retryAfterMs);
      const dropped = await requeue(db, messages, { delayMs: outcome.retryAfterMs, countsAsTry: false, reason: outcome.reason, budget: true });
      return { sent: 0, failed: messages.length - dropped, refused: 0, dropped, retryAfterMs: outcome.retryAfterMs };
    }
    case "transient": {
      const tries = Math.max(...messages.map((message) => message.attempts)) + 1;
      const delayMs = emailRetryDelayMs(tries);
      const dropped = await requeue(db, messages, { delayMs, countsAsTry: true, reason: outcome.reason, budget: true });
      logger().warn(
        { context: "email", count: messages.length, message_ids: messages.map((m) => m.id), try: tries, retry_in_ms: delayMs, reason: withoutAddresses(outcome.reason) },
        "not sent; will retry",
      );
      return { sent: 0, failed: messages.length - dropped, refused: 0, dropped, retryAfterMs: delayMs };
    }
  }
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

/**
 * A message that is done with — accepted by the provider, refused for good, dropped — keeps
 * no body and no links: they carried personal, invitation and sign-in links, which a copy of
 * the database must not reveal (docs/security.md, "Tokens and secrets at rest"). Until then
 * the body stays, since a retry resends exactly the same bytes.
 */
const DISCARD_BODY = sql`html = '', text = '', links = '[]'::jsonb`;

/**
 * Marks a sent batch in one statement (a Resend batch is up to 100 messages), discarding
 * the bodies unless `keepBody` (the dev mailbox's own). The provider has them: a lost
 * connection is tried again (only still-queued rows change), not left for the lease to send
 * them a second time.
 */
async function markSent(db: Db, sent: { id: string; providerId: string | null }[], { keepBody }: { keepBody: boolean }): Promise<void> {
  const rows = sql.join(
    sent.map(({ id, providerId }) => sql`(${id}::text, ${providerId}::text)`),
    sql`, `,
  );
  await retryWhileDisconnected(
    () =>
      db.execute(sql`
        update email_messages as m
        set status = 'sent', attempts = m.attempts + 1, provider_id = v.provider_id, sent_at = now(), locked_until = null${keepBody ? sql`` : sql`, ${DISCARD_BODY}`}
        from (values ${rows}) as v(id, provider_id)
        where m.id = v.id and m.status = 'queued'`),
    leaseMs() / 2,
  );
}

/** Permanently refused messages: `failed` with the provider's reason, never tried again (so their bodies go). */
async function markRefused(db: Db, refused: { id: string; reason: string }[]): Promise<void> {
  const rows = sql.join(
    refused.map(({ id, reason }) => sql`(${id}::text, ${reason.slice(0, 500)}::text)`),
    sql`, `,
  );
  await db.execute(sql`
    update email_messages as m
    set status = 'failed', attempts = m.attempts + 1, last_error = v.reason, locked_until = null, ${DISCARD_BODY}
    from (values ${rows}) as v(id, reason)
    where m.id = v.id and m.status = 'queued'`);
}

/**
 * Puts a batch back in the queue, due after `delayMs`, in one statement. With `budget`, a
 * batch whose oldest member was queued more than EMAIL_RETRY_HOURS ago is dropped instead,
 * all members together (a batch keeps its members, so its key never meets another body), and
 * their bodies discarded. Returns how many were dropped.
 */
async function requeue(
  db: Db,
  messages: EmailMessage[],
  options: { delayMs: number; countsAsTry: boolean; reason: string | null; budget: boolean },
): Promise<number> {
  const list = sql.join(messages.map((message) => sql`${message.id}`), sql`, `);
  const budgetMs = options.budget ? emailRetryBudgetMs() : null;
  const rows = await db.execute(sql`
    with batch as (
      select coalesce(${budgetMs}::float8 is not null and min(created_at) + ${budgetMs}::float8 * interval '1 millisecond' <= now(), false) as spent
      from email_messages where id in (${list})
    )
    update email_messages as m
    set status = case when batch.spent then 'dropped' else 'queued' end,
        html = case when batch.spent then '' else m.html end,
        text = case when batch.spent then '' else m.text end,
        links = case when batch.spent then '[]'::jsonb else m.links end,
        attempts = m.attempts + ${options.countsAsTry ? 1 : 0},
        last_error = coalesce(${options.reason === null ? null : options.reason.slice(0, 500)}::text, m.last_error),
        locked_until = null,
        next_attempt_at = now() + ${Math.max(0, Math.round(options.delayMs))} * interval '1 millisecond'
    from batch
    where m.id in (${list}) and m.status = 'queued'
    returning m.id, m.status`);
  const droppedIds = rowsOf<{ id: string; status: string }>(rows).filter((row) => row.status === "dropped").map((row) => row.id);
  const dropped = droppedIds.length;
  if (dropped) {
    logger().error(
      { context: "email", count: dropped, message_ids: droppedIds, retried_hours: budgetMs! / 3_600_000, reason: withoutAddresses(options.reason ?? "") },
      "dropped: the retry budget is spent",
    );
  }
  await notifyOutbox(db);
  return dropped;
}

/**
 * Gives up on messages (an executor's final failure handler, e.g. Inngest's onFailure):
 * queued ones become `dropped` with `reason`. The other queued members of their batches go
 * with them, so a batch is never resent under its key with another body. Returns how many.
 */
export async function dropEmails(db: Db, ids: string[], reason: string): Promise<number> {
  if (ids.length === 0) return 0;
  const list = sql.join(ids.map((id) => sql`${id}`), sql`, `);
  const rows = await db.execute(sql`
    update email_messages
    set status = 'dropped', last_error = ${reason.slice(0, 500)}, locked_until = null, ${DISCARD_BODY}
    where status = 'queued'
      and (id in (${list}) or batch_key in (select batch_key from email_messages where id in (${list}) and batch_key is not null))
    returning id`);
  return rowsOf<{ id: string }>(rows).length;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
