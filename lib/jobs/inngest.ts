import { createHash } from "node:crypto";
import { Inngest, RetryAfterError } from "inngest";
import { and, eq, isNull, lte, sql } from "drizzle-orm";
import { getDb, type Db } from "@/db";
import { emailMessages, scheduledSteps, webhookDeliveries } from "@/db/schema";
import { deliverEmails } from "@/lib/email/send";
import { attemptDelivery, dropDelivery } from "@/lib/webhooks/deliveries";
import { EMAIL_RETRIES, emailRetryDelayMs, retryDelayMs, WEBHOOK_RETRIES } from "./schedule";
import "./registry";
import { runStep } from "./steps";

/** Inngest is the executor when its keys (production) or INNGEST_DEV are configured. */
export function inngestConfigured(): boolean {
  return Boolean(process.env.INNGEST_EVENT_KEY || process.env.INNGEST_SIGNING_KEY || process.env.INNGEST_DEV);
}

export const inngest = new Inngest({ id: "certify" });

export const eventNames = {
  delivery: "certify/webhook.delivery.requested",
  email: "certify/email.send.requested",
  step: "certify/step.scheduled",
} as const;

type DbProvider = () => Promise<Db>;

/**
 * The functions, built around a database provider so tests can hand them their own. They
 * call the same domain functions as the embedded worker; the schedule comes from
 * ./schedule (retries = attempts − 1, RetryAfterError for the linear backoff).
 */
export function createFunctions(database: DbProvider = getDb) {
  const deliverWebhook = inngest.createFunction(
    {
      id: "deliver-webhook",
      triggers: { event: eventNames.delivery },
      retries: WEBHOOK_RETRIES,
      // One receiver is never hammered by many attempts at once; other endpoints go on.
      concurrency: { key: "event.data.endpointId", limit: 4 },
      onFailure: async ({ event }) => {
        const original = (event.data as { event?: { data?: { deliveryId?: string } } }).event;
        if (original?.data?.deliveryId) await dropDelivery(await database(), original.data.deliveryId);
      },
    },
    async ({ event }) => {
      const result = await attemptDelivery(await database(), (event.data as { deliveryId: string }).deliveryId);
      if (result.outcome === "retry") throw new RetryAfterError(result.error, result.retryInMs);
      return result;
    },
  );

  const sendEmail = inngest.createFunction(
    { id: "send-email", triggers: { event: eventNames.email }, retries: EMAIL_RETRIES },
    async ({ event, attempt }) => {
      const ids = (event.data as { ids: string[] }).ids;
      const result = await deliverEmails(await database(), ids);
      if (result.failed > 0) throw new RetryAfterError(`${result.failed} e-mail(s) not sent`, emailRetryDelayMs(attempt + 1));
      return result;
    },
  );

  const runScheduledStep = inngest.createFunction(
    { id: "run-scheduled-step", triggers: { event: eventNames.step }, retries: WEBHOOK_RETRIES },
    async ({ event, step, attempt }) => {
      const { stepId, runAt } = event.data as { stepId: string; runAt: string };
      await step.sleepUntil("until-due", new Date(runAt));
      const outcome = await step.run("run", async () => {
        const result = await runStep(await database(), stepId);
        // runStep recorded the failure; Inngest must run the step again (the row stays handed off).
        if (result === "retry") throw new RetryAfterError(`step ${stepId} failed; retrying`, retryDelayMs(attempt + 1));
        return result;
      });
      return { outcome };
    },
  );

  /** Hands over outbox rows that were committed but never given to Inngest. */
  const sweepOutbox = inngest.createFunction(
    { id: "sweep-outbox", triggers: { cron: "* * * * *" } },
    async () => handOffToInngest(await database(), { olderThanMs: 30_000 }),
  );

  return [deliverWebhook, sendEmail, runScheduledStep, sweepOutbox];
}

/**
 * Gives pending outbox rows to Inngest and marks them handed off. Rows are locked while
 * they are sent, so two instances never hand over the same row; if sending fails nothing
 * is marked and the next pass (or the cron sweep) tries again.
 */
export async function handOffToInngest(db: Db, options: { olderThanMs?: number } = {}): Promise<{ handedOff: number }> {
  const cutoff = sql`now() - ${options.olderThanMs ?? 0} * interval '1 millisecond'`;
  return db.transaction(async (tx) => {
    const deliveries = await tx
      .select({ id: webhookDeliveries.id, endpointId: webhookDeliveries.endpointId })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.status, "pending"), isNull(webhookDeliveries.handedOffAt), lte(webhookDeliveries.createdAt, cutoff)))
      .limit(500)
      .for("update", { skipLocked: true });
    const emails = await tx
      .select({ id: emailMessages.id })
      .from(emailMessages)
      .where(and(eq(emailMessages.status, "queued"), isNull(emailMessages.handedOffAt), lte(emailMessages.createdAt, cutoff)))
      .limit(500)
      .for("update", { skipLocked: true });
    const steps = await tx
      .select({ id: scheduledSteps.id, runAt: scheduledSteps.runAt })
      .from(scheduledSteps)
      .where(and(eq(scheduledSteps.status, "pending"), isNull(scheduledSteps.handedOffAt), lte(scheduledSteps.createdAt, cutoff)))
      .limit(500)
      .for("update", { skipLocked: true });
    const payloads = [
      ...deliveries.map((d) => ({ name: eventNames.delivery, id: d.id, data: { deliveryId: d.id, endpointId: d.endpointId } })),
      ...(emails.length ? [{ name: eventNames.email, id: `emails-${digest(emails.map((e) => e.id))}`, data: { ids: emails.map((e) => e.id) } }] : []),
      ...steps.map((s) => ({ name: eventNames.step, id: s.id, data: { stepId: s.id, runAt: s.runAt.toISOString() } })),
    ];
    if (payloads.length === 0) return { handedOff: 0 };
    await inngest.send(payloads);
    const now = new Date();
    for (const d of deliveries) await tx.update(webhookDeliveries).set({ handedOffAt: now }).where(eq(webhookDeliveries.id, d.id));
    for (const e of emails) await tx.update(emailMessages).set({ handedOffAt: now }).where(eq(emailMessages.id, e.id));
    for (const s of steps) await tx.update(scheduledSteps).set({ handedOffAt: now }).where(eq(scheduledSteps.id, s.id));
    return { handedOff: payloads.length };
  });
}


/** A stable id for a group of rows (Inngest de-duplicates events by id). */
function digest(ids: string[]): string {
  return createHash("sha256").update([...ids].sort().join(",")).digest("hex").slice(0, 40);
}
