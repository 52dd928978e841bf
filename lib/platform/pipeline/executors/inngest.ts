import { createHash } from "node:crypto";
import { cron, eventType, Inngest, NonRetriableError, RetryAfterError } from "inngest";
import { and, eq, inArray, isNotNull, isNull, lte, min, or, sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { Db } from "@/db";
import { emailMessages, scheduledSteps, webhookDeliveries } from "@/db/schema";
import { config } from "@/lib/kernel/config/config";
import { deliverEmails, dropEmails } from "@/lib/platform/pipeline/channels/email/deliver";
import { logger } from "@/lib/kernel/log";
import { EMAIL_RETRIES, retryDelayMs, WEBHOOK_RETRIES, webhookRunRetries } from "@/lib/platform/pipeline/outbox/schedule";
import { failStep, runStep, type StepRegistry } from "@/lib/platform/pipeline/channels/steps/steps";
import { attemptDelivery, dropDelivery } from "@/lib/platform/pipeline/channels/webhook/attempts";
import { jobEventCatalog, type JobEventData, type JobEventKey, parseJobEvent } from "./inngest-events";

// Which executor, and the Inngest settings: pure functions of an env object, kept apart so
// lib/kernel/config/config.ts can call them without loading the SDK (a half configuration is one of the
// problems its ConfigError lists).
export { INNGEST_DEFAULTS, inngestMode, inngestSettings, type InngestMode, type InngestSettings } from "@/lib/kernel/config/inngest-mode";

// The SDK reads INNGEST_EVENT_KEY, INNGEST_SIGNING_KEY(_FALLBACK), INNGEST_DEV and its URLs
// from the environment itself (the library's own reads); lib/kernel/config/config.ts checks the same variables
// at start, so a half configuration never reaches it.
export const inngest = new Inngest({ id: "certify" });

/** The events of ./catalog.ts, with their schemas: the SDK validates them when sent and when received. */
export const webhookDeliveryRequested = eventType(jobEventCatalog.webhookDeliveryRequested.name, { schema: jobEventCatalog.webhookDeliveryRequested.data });
export const emailSendRequested = eventType(jobEventCatalog.emailSendRequested.name, { schema: jobEventCatalog.emailSendRequested.data });
export const stepScheduled = eventType(jobEventCatalog.stepScheduled.name, { schema: jobEventCatalog.stepScheduled.data });
const jobEvents = { webhookDeliveryRequested, emailSendRequested, stepScheduled } as const satisfies Record<JobEventKey, unknown>;

export const eventNames = {
  delivery: webhookDeliveryRequested.name,
  email: emailSendRequested.name,
  step: stepScheduled.name,
} as const;

type DbProvider = () => Promise<Db>;

/** The steps a function handler uses to sleep (a subset of Inngest's step tools). */
type Sleeper = {
  sleepUntil(id: string, until: Date): Promise<unknown>;
  run<T>(id: string, fn: () => Promise<T> | T): Promise<unknown>;
};

/**
 * Sleeps until `due`, in hops of at most INNGEST_MAX_SLEEP_MS (Inngest caps one sleep: 7 days on
 * the free plan, a year on paid plans): a deployment window of weeks is a chain of sleeps.
 * The hops are anchored on the event's timestamp, so every replay of the run computes the
 * same step ids and targets.
 */
export async function sleepUntilChained(step: Sleeper, id: string, due: Date, anchorMs: number | undefined): Promise<number> {
  const { maxSleepMs } = config().inngest;
  const anchor = anchorMs ?? ((await step.run(`${id}-anchor`, () => Date.now())) as number);
  let hops = 0;
  for (let at = anchor + maxSleepMs; at < due.getTime(); at += maxSleepMs) {
    hops += 1;
    await step.sleepUntil(`${id}-hop-${hops}`, new Date(at));
  }
  await step.sleepUntil(id, due);
  return hops;
}

/** The most rounds one e-mail run makes (each is a send and a sleep; Inngest allows 1,000 steps). */
const EMAIL_ROUNDS = 200;

function reason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return `Inngest run failed: ${message}`.slice(0, 500);
}

/**
 * The functions, built around a database provider and the steps they run (the job-handler
 * registry, lib/registry/steps.ts; tests hand in their own)
 * them their own. They call the same domain functions as the embedded worker; the schedule
 * comes from lib/platform/pipeline/outbox/schedule.ts. Every function has an onFailure that records the
 * outcome on the row, and a permanent failure (a row that no longer exists, a payload that
 * fails its schema) is a NonRetriableError: Inngest does not retry it.
 */
export function createFunctions(database: DbProvider, steps: StepRegistry) {
  const settings = config().inngest;

  /**
   * The settings of a function that runs on an event of ./catalog.ts, with its onFailure: the
   * failed run's own event, parsed with the schema of its catalog entry, and `record` writes
   * why on its rows (nothing to record for an event not of ours).
   */
  function onJobEvent<K extends JobEventKey, R extends number>(
    key: K,
    id: string,
    retries: R,
    record: (db: Db, data: JobEventData<K>, why: string) => Promise<Record<string, unknown> | void>,
  ) {
    const triggers: [(typeof jobEvents)[K]] = [jobEvents[key]];
    return {
      id,
      triggers,
      retries,
      onFailure: async ({ event, error }: { event: { data: { event: { data: unknown } } }; error: unknown }) => {
        const original = parseJobEvent(key, event.data.event.data);
        if (!original.success) return { recorded: false };
        const why = reason(error);
        return { recorded: true, reason: why, ...(await record(await database(), original.data, why)) };
      },
    };
  }

  const deliverWebhook = inngest.createFunction(
    {
      // Retries enough for the longer schedule (a test result's, by default 7); each run makes one
      // attempt and RetryAfterError sleeps until the next one is due, durably, hours if need be.
      ...onJobEvent("webhookDeliveryRequested", "deliver-webhook", webhookRunRetries(), async (db, { deliveryId }) => {
        await dropDelivery(db, deliveryId);
        return { dropped: deliveryId };
      }),
      // One receiver is never hammered by many attempts at once; other endpoints go on
      // (WEBHOOK_ENDPOINT_CONCURRENCY, default 4, as the embedded worker does per instance).
      concurrency: { key: "event.data.endpointId", limit: config().webhooks.endpointConcurrency },
    },
    async ({ event }) => {
      const { deliveryId } = event.data;
      const db = await database();
      const result = await attemptDelivery(db, deliveryId);
      if (result.outcome === "retry") throw new RetryAfterError(result.error, result.retryInMs);
      // The last attempt failed: the run fails (onFailure records it) and is not retried.
      if (result.outcome === "dropped") throw new NonRetriableError(`delivery ${deliveryId} dropped after attempt ${result.attempt}: ${result.error}`);
      if (result.outcome === "skipped") {
        const [row] = await db.select({ id: webhookDeliveries.id }).from(webhookDeliveries).where(eq(webhookDeliveries.id, deliveryId));
        if (!row) throw new NonRetriableError(`delivery ${deliveryId} no longer exists`);
      }
      return result;
    },
  );

  const sendEmail = inngest.createFunction(
    onJobEvent("emailSendRequested", "send-email", EMAIL_RETRIES, (db, { ids }, why) => dropEmails(db, ids, why).then(() => undefined)),
    /**
     * Sends, then sleeps until the next retry the e-mail module scheduled for what is left
     * (it decides what is transient, when to retry, and when to give up), and sends again:
     * a provider outage of hours is a few sleeps, not an exhausted retry count.
     */
    async ({ event, step }) => {
      const { ids } = event.data;
      const totals = { sent: 0, failed: 0 };
      for (let round = 1; round <= EMAIL_ROUNDS; round++) {
        const result = (await step.run(`send-${round}`, async () => {
          const db = await database();
          const sent = await deliverEmails(db, ids);
          return { sent: sent.sent, failed: sent.failed, next: await nextEmailDue(db, ids) };
        })) as { sent: number; failed: number; next: string | null };
        totals.sent += result.sent;
        totals.failed += result.failed;
        if (!result.next) return totals;
        await step.sleepUntil(`retry-${round}`, new Date(result.next));
      }
      // Still queued after every round: the stranded-row sweep hands them over again.
      return totals;
    },
  );

  const runScheduledStep = inngest.createFunction(
    onJobEvent("stepScheduled", "run-scheduled-step", WEBHOOK_RETRIES, (db, { stepId }, why) => failStep(db, stepId, why).then(() => undefined)),
    async ({ event, step, attempt }) => {
      const { stepId, runAt } = event.data;
      await sleepUntilChained(step, "until-due", new Date(runAt), event.ts);
      const outcome = await step.run("run", async () => {
        const db = await database();
        const result = await runStep(db, stepId, steps);
        if (result === "skipped") {
          const [row] = await db.select({ id: scheduledSteps.id }).from(scheduledSteps).where(eq(scheduledSteps.id, stepId));
          if (!row) throw new NonRetriableError(`scheduled step ${stepId} no longer exists`);
        }
        // runStep recorded the failure; Inngest must run the step again (the row stays handed off).
        if (result === "retry") throw new RetryAfterError(`step ${stepId} failed; retrying`, retryDelayMs(attempt + 1));
        return result;
      });
      return { outcome };
    },
  );

  /** Hands over outbox rows that were never given to Inngest, and rows whose run was lost. */
  const sweepOutbox = inngest.createFunction(
    { id: "sweep-outbox", triggers: [cron(settings.sweepCron)], retries: 0 },
    async () => handOffToInngest(await database(), { olderThanMs: 30_000 }),
  );

  return [deliverWebhook, sendEmail, runScheduledStep, sweepOutbox] as const;
}

/** The earliest retry time of the e-mails still queued among `ids`, or null when none is left. */
async function nextEmailDue(db: Db, ids: string[]): Promise<string | null> {
  const [row] = await db
    .select({ next: min(emailMessages.nextAttemptAt) })
    .from(emailMessages)
    .where(and(inArray(emailMessages.id, ids), eq(emailMessages.status, "queued")));
  return row?.next ? new Date(row.next).toISOString() : null;
}

/**
 * Which rows to hand over: never handed off and older than `olderThanMs`, or stranded —
 * handed off, still unfinished, and both the hand-off and the row's due time more than
 * `strandedAfterMs` ago (the run was lost: the app was unreachable, the run was cancelled,
 * the signing key rotated). A live run keeps moving the due time (each retry reschedules
 * the row), so it is not taken for stranded.
 */
function handOffCondition(olderThanMs: number, strandedAfterMs: number) {
  const ago = (ms: number) => sql`now() - ${ms} * interval '1 millisecond'`;
  /** For an outbox table: its rows in `status` (the one of work still to do) to hand over, stranded by their `due` column. */
  return (outbox: { status: AnyColumn; createdAt: AnyColumn; handedOffAt: AnyColumn }, status: string, due: AnyColumn): SQL =>
    and(
      eq(outbox.status, status),
      or(
        and(isNull(outbox.handedOffAt), lte(outbox.createdAt, ago(olderThanMs))),
        and(isNotNull(outbox.handedOffAt), lte(outbox.handedOffAt, ago(strandedAfterMs)), lte(due, ago(strandedAfterMs))),
      ),
    )!;
}

/** The most rows of one outbox table one hand-off takes. */
const HAND_OFF_BATCH = 500;

/**
 * The event id of a hand-off. The first hand-off uses the row's id; a re-hand-off needs a
 * new one (Inngest de-duplicates events by id for 24 hours), derived from the previous
 * hand-off's time, so a hand-off whose marking failed is re-sent with the same id.
 */
function handOffId(id: string, previous: Date | null): string {
  return previous ? `${id}~${previous.getTime()}` : id;
}

/**
 * Gives pending outbox rows to Inngest and marks them handed off, and hands over again the
 * rows whose run never completed (see handOffCondition). Rows are locked while they are
 * sent, so two instances never hand over the same row; if sending fails nothing is marked
 * and the next pass (or the cron sweep) tries again.
 */
export async function handOffToInngest(
  db: Db,
  options: { olderThanMs?: number; strandedAfterMs?: number } = {},
): Promise<{ handedOff: number; again: number }> {
  const olderThanMs = options.olderThanMs ?? 0;
  const strandedAfterMs = options.strandedAfterMs ?? config().inngest.strandedAfterMs;
  return db.transaction(async (tx) => {
    const toHandOff = handOffCondition(olderThanMs, strandedAfterMs);
    const deliveries = await tx
      .select({ id: webhookDeliveries.id, endpointId: webhookDeliveries.endpointId, handedOffAt: webhookDeliveries.handedOffAt })
      .from(webhookDeliveries)
      .where(toHandOff(webhookDeliveries, "pending", webhookDeliveries.nextAttemptAt))
      .limit(HAND_OFF_BATCH).for("update", { skipLocked: true });
    const emails = await tx
      .select({ id: emailMessages.id, handedOffAt: emailMessages.handedOffAt })
      .from(emailMessages)
      .where(toHandOff(emailMessages, "queued", emailMessages.nextAttemptAt))
      .limit(HAND_OFF_BATCH).for("update", { skipLocked: true });
    const steps = await tx
      .select({ id: scheduledSteps.id, runAt: scheduledSteps.runAt, handedOffAt: scheduledSteps.handedOffAt })
      .from(scheduledSteps)
      .where(toHandOff(scheduledSteps, "pending", scheduledSteps.runAt))
      .limit(HAND_OFF_BATCH).for("update", { skipLocked: true });
    const payloads = [
      ...deliveries.map((d) => webhookDeliveryRequested.create({ deliveryId: d.id, endpointId: d.endpointId }, { id: handOffId(d.id, d.handedOffAt) })),
      ...(emails.length
        ? [emailSendRequested.create({ ids: emails.map((e) => e.id) }, { id: `emails-${digest(emails.map((e) => handOffId(e.id, e.handedOffAt)))}` })]
        : []),
      ...steps.map((s) => stepScheduled.create({ stepId: s.id, runAt: s.runAt.toISOString() }, { id: handOffId(s.id, s.handedOffAt) })),
    ];
    if (payloads.length === 0) return { handedOff: 0, again: 0 };
    await inngest.send(payloads);
    const now = new Date();
    const again = [...deliveries, ...emails, ...steps].filter((row) => row.handedOffAt !== null).length;
    if (deliveries.length) await tx.update(webhookDeliveries).set({ handedOffAt: now }).where(inArray(webhookDeliveries.id, deliveries.map((d) => d.id)));
    if (emails.length) await tx.update(emailMessages).set({ handedOffAt: now }).where(inArray(emailMessages.id, emails.map((e) => e.id)));
    if (steps.length) await tx.update(scheduledSteps).set({ handedOffAt: now }).where(inArray(scheduledSteps.id, steps.map((s) => s.id)));
    if (again > 0) {
      logger().warn({ context: "inngest", handed_over_again: again, stranded_after_ms: strandedAfterMs }, "rows handed over again: their run never completed");
    }
    return { handedOff: payloads.length, again };
  });
}

/** A stable id for a group of rows (Inngest de-duplicates events by id). */
function digest(ids: string[]): string {
  return createHash("sha256").update([...ids].sort().join(",")).digest("hex").slice(0, 40);
}
