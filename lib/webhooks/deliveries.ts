import { and, asc, desc, eq, inArray, not, sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { Db } from "@/db";
import { events, webhookAttempts, webhookDeliveries, webhookEndpoints, type AttemptState, type Event, type WebhookService } from "@/db/schema";
import { offsetOf, page, type Page, type Paging } from "@/lib/api/paging";
import { notFound } from "@/lib/errors";
import { certificationEvent, competitionEvents, eventCatalog, isCompetitionEvent, type EventType } from "@/lib/events/catalog";
import { newId } from "@/lib/ids";
import { claimDue } from "@/lib/outbox/claim";
import { notifyOutbox } from "@/lib/outbox/notify";
import { leaseMs, MAX_ATTEMPTS, retryDelayMs } from "@/lib/outbox/schedule";
import { buildWireMessage } from "./format";
import { postOnce, type PostResult } from "./http";
import { getWebhook } from "./endpoints";
import type { DeliveryView } from "./schemas";
import { sampleEventData } from "./samples";

export type AttemptOutcome =
  | { outcome: "delivered"; attempt: number }
  | { outcome: "retry"; attempt: number; retryInMs: number; error: string }
  | { outcome: "dropped"; attempt: number; error: string }
  | { outcome: "skipped" };

/**
 * Claims due pending deliveries for this worker: `FOR UPDATE SKIP LOCKED` so two
 * instances never take the same row, and a lease so a crashed worker's rows come back.
 */
export function claimDueDeliveries(db: Db, limit: number): Promise<string[]> {
  return claimDue(db, "webhook_deliveries", limit);
}

/** What the POST of an attempt needs, once the attempt is recorded as in flight. */
export type StartedAttempt = {
  deliveryId: string;
  attemptId: number;
  number: number;
  startedAt: Date;
  url: string;
  body: string;
  headers: Record<string, string>;
};

const INTERRUPTED = "interrupted: the worker stopped mid-attempt; no response was recorded";

/** An in-flight attempt older than the lease belongs to a worker that died (no attempt outlives its lease). */
const leaseOver = (startedAt: SQL | AnyColumn) => sql`${startedAt} <= now() - ${leaseMs()} * interval '1 millisecond'`;

/**
 * Makes one attempt of a pending delivery and records it: delivered, retry later (linear
 * backoff), or dropped after the last attempt. The attempt is counted and recorded as in
 * flight BEFORE the POST (startAttempt) and completed after it (finishAttempt), so a worker
 * that dies mid-call has still used that attempt: no receiver ever gets more than
 * MAX_ATTEMPTS POSTs for one delivery, and the log shows each of them. The event id and
 * body content stay the same on every attempt; only the build timestamp changes. Used by
 * both executors.
 */
export async function attemptDelivery(db: Db, deliveryId: string): Promise<AttemptOutcome> {
  const start = await startAttempt(db, deliveryId);
  if ("outcome" in start) return start;
  const result = await postOnce(start.url, start.body, start.headers);
  return finishAttempt(db, start, result);
}

/**
 * Phase one, one short transaction: locks the pending delivery; marks an attempt left in
 * flight by a dead worker `interrupted` (it was counted when it began); then either drops
 * the delivery (its attempts are used up) or counts the next attempt, records it
 * `in_flight` and extends the lease to cover it.
 */
export async function startAttempt(db: Db, deliveryId: string): Promise<StartedAttempt | AttemptOutcome> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ delivery: webhookDeliveries, event: events, endpoint: webhookEndpoints })
      .from(webhookDeliveries)
      .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
      .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.status, "pending")))
      .for("no key update", { of: webhookDeliveries });
    if (!row) return { outcome: "skipped" } as const;

    const inFlight = and(eq(webhookAttempts.deliveryId, deliveryId), eq(webhookAttempts.state, "in_flight"));
    const [live] = await tx
      .select({ id: webhookAttempts.id })
      .from(webhookAttempts)
      .where(and(inFlight, not(leaseOver(webhookAttempts.startedAt))));
    // Another executor is posting this attempt right now (its lease holds): leave it be.
    if (live) return { outcome: "skipped" } as const;
    await tx.update(webhookAttempts).set({ state: "interrupted", error: INTERRUPTED }).where(inFlight);

    const used = row.delivery.attempts;
    if (used >= MAX_ATTEMPTS) {
      await tx
        .update(webhookDeliveries)
        .set({ status: "dropped", lockedUntil: null, completedAt: new Date() })
        .where(eq(webhookDeliveries.id, deliveryId));
      return { outcome: "dropped", attempt: used, error: `attempt ${used} was ${INTERRUPTED}` } as const;
    }

    const number = used + 1;
    await tx
      .update(webhookDeliveries)
      .set({ attempts: number, lockedUntil: sql`now() + ${leaseMs()} * interval '1 millisecond'` })
      .where(eq(webhookDeliveries.id, deliveryId));
    const [attempt] = await tx
      .insert(webhookAttempts)
      .values({ deliveryId, number, state: "in_flight", ok: false, durationMs: 0, startedAt: sql`now()` })
      .returning({ id: webhookAttempts.id, startedAt: webhookAttempts.startedAt });
    const message = buildWireMessage(row.event, row.endpoint.secret, attempt.startedAt);
    return { deliveryId, attemptId: attempt.id, number, startedAt: attempt.startedAt, url: row.endpoint.url, ...message };
  });
}

/**
 * Phase two, after the POST: completes the in-flight attempt with the receiver's answer and
 * moves the delivery on (delivered, retry at now + backoff, or dropped after the last try).
 * If the attempt is no longer in flight, another worker took the delivery over after this
 * one outlived its lease: nothing is recorded.
 */
export async function finishAttempt(db: Db, attempt: StartedAttempt, result: PostResult): Promise<AttemptOutcome> {
  const { deliveryId, number } = attempt;
  const status = result.ok ? "delivered" : number >= MAX_ATTEMPTS ? "dropped" : "pending";
  const retryInMs = retryDelayMs(number);
  const recorded = await db.transaction(async (tx) => {
    const [completed] = await tx
      .update(webhookAttempts)
      .set({
        state: "completed",
        ok: result.ok,
        statusCode: result.statusCode,
        error: result.error,
        responseExcerpt: result.excerpt,
        durationMs: result.durationMs,
      })
      .where(and(eq(webhookAttempts.id, attempt.attemptId), eq(webhookAttempts.state, "in_flight")))
      .returning({ id: webhookAttempts.id });
    if (!completed) return false;
    const [updated] = await tx
      .update(webhookDeliveries)
      .set({
        status,
        lockedUntil: null,
        nextAttemptAt: status === "pending" ? sql`now() + ${retryInMs} * interval '1 millisecond'` : sql`${webhookDeliveries.nextAttemptAt}`,
        completedAt: status === "pending" ? null : new Date(),
      })
      .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.attempts, number), eq(webhookDeliveries.status, "pending")))
      .returning({ id: webhookDeliveries.id });
    if (!updated) return false;
    if (status === "pending") await notifyOutbox(tx);
    return true;
  });
  if (!recorded) return { outcome: "skipped" };
  if (result.ok) return { outcome: "delivered", attempt: number };
  const error = result.error ?? `HTTP ${result.statusCode}`;
  return status === "dropped" ? { outcome: "dropped", attempt: number, error } : { outcome: "retry", attempt: number, retryInMs, error };
}

/** Marks a delivery dropped (the Inngest executor's onFailure). */
export async function dropDelivery(db: Db, deliveryId: string): Promise<void> {
  await db
    .update(webhookDeliveries)
    .set({ status: "dropped", lockedUntil: null, completedAt: new Date() })
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.status, "pending")));
}

/** The delivery log of one endpoint, newest first, with every attempt; given a service, an endpoint of the other one is not found. */
export async function listDeliveries(db: Db, workspaceId: string, endpointId: string, paging: Paging, service?: WebhookService): Promise<Page<DeliveryView>> {
  await getWebhook(db, workspaceId, endpointId, service);
  const where = and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.workspaceId, workspaceId));
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({ delivery: webhookDeliveries, type: events.type })
      .from(webhookDeliveries)
      .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
      .where(where)
      .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
      .limit(paging.per_page)
      .offset(offsetOf(paging)),
    db.select({ total: sql<number>`count(*)::int` }).from(webhookDeliveries).where(where),
  ]);
  const ids = rows.map((row) => row.delivery.id);
  // An attempt still in flight after its lease ran out will never complete: show it as interrupted now.
  const attempts = ids.length
    ? await db
        .select({
          attempt: webhookAttempts,
          state: sql<AttemptState>`case when ${webhookAttempts.state} = 'in_flight' and ${leaseOver(webhookAttempts.startedAt)} then 'interrupted' else ${webhookAttempts.state} end`,
        })
        .from(webhookAttempts)
        .where(inArray(webhookAttempts.deliveryId, ids))
        .orderBy(asc(webhookAttempts.number))
    : [];
  return page(
    rows.map(({ delivery, type }) => ({
      id: delivery.id,
      event_id: delivery.eventId,
      event: type,
      status: delivery.status,
      next_attempt_at: delivery.status === "pending" ? delivery.nextAttemptAt.toISOString() : null,
      created_at: delivery.createdAt.toISOString(),
      redelivery_of: delivery.redeliveryOf,
      attempts: attempts
        .filter(({ attempt }) => attempt.deliveryId === delivery.id)
        .map(({ attempt, state }) => ({
          number: attempt.number,
          state,
          ok: attempt.ok,
          status_code: attempt.statusCode,
          error: state === "interrupted" ? (attempt.error ?? INTERRUPTED) : attempt.error,
          response_excerpt: attempt.responseExcerpt,
          duration_ms: attempt.durationMs,
          started_at: attempt.startedAt.toISOString(),
        })),
    })),
    paging,
    total,
  );
}

/** A fresh delivery of the same event (same event id) to the same endpoint. */
export async function redeliver(db: Db, workspaceId: string, deliveryId: string): Promise<{ id: string }> {
  return db.transaction(async (tx) => {
    const [original] = await tx
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.workspaceId, workspaceId)));
    if (!original) throw notFound("Delivery");
    const [created] = await tx
      .insert(webhookDeliveries)
      .values({ id: newId("dlv"), workspaceId, eventId: original.eventId, endpointId: original.endpointId, redeliveryOf: original.id })
      .returning({ id: webhookDeliveries.id });
    await notifyOutbox(tx);
    return created;
  });
}

/**
 * Sends a sample event, in its real wire format, to one endpoint only: `test.completed` to a
 * test-result endpoint; to a competition endpoint the first event it subscribes to (the
 * first competition event when it takes them all).
 */
export async function sendTestEvent(db: Db, workspaceId: string, endpointId: string): Promise<{ delivery_id: string; event: Event }> {
  const endpoint = await getWebhook(db, workspaceId, endpointId);
  const type: EventType = endpoint.service === "certification" ? certificationEvent : (endpoint.events.find(isCompetitionEvent) ?? competitionEvents[0]);
  const data = eventCatalog[type].data.parse(sampleEventData(type)) as Record<string, unknown>;
  return db.transaction(async (tx) => {
    const [event] = await tx.insert(events).values({ id: newId("evt"), workspaceId, type, data }).returning();
    const [delivery] = await tx
      .insert(webhookDeliveries)
      .values({ id: newId("dlv"), workspaceId, eventId: event.id, endpointId })
      .returning({ id: webhookDeliveries.id });
    await notifyOutbox(tx);
    return { delivery_id: delivery.id, event };
  });
}
