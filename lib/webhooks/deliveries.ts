import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { events, webhookAttempts, webhookDeliveries, webhookEndpoints, type Event } from "@/db/schema";
import { offsetOf, page, type Page, type Paging } from "@/lib/api/paging";
import { notFound } from "@/lib/errors";
import { eventCatalog, isEventType, type EventType } from "@/lib/events/catalog";
import { notifyOutbox } from "@/lib/events/publish";
import { newId } from "@/lib/ids";
import { claimDue } from "@/lib/jobs/claim";
import { MAX_ATTEMPTS, retryDelayMs } from "@/lib/jobs/schedule";
import { buildWireMessage } from "./format";
import { postOnce } from "./http";
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

/**
 * Makes one attempt of a pending delivery and records it: delivered, retry later (linear
 * backoff), or dropped after the last attempt. The event id and body content stay the same
 * on every attempt; only the build timestamp changes. Used by both executors.
 */
export async function attemptDelivery(db: Db, deliveryId: string): Promise<AttemptOutcome> {
  const [row] = await db
    .select({ delivery: webhookDeliveries, event: events, endpoint: webhookEndpoints })
    .from(webhookDeliveries)
    .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.status, "pending")));
  if (!row) return { outcome: "skipped" };

  const number = row.delivery.attempts + 1;
  const startedAt = new Date();
  const message = buildWireMessage(row.event, row.endpoint.secret, startedAt);
  const result = await postOnce(row.endpoint.url, message.body, message.headers);

  const status = result.ok ? "delivered" : number >= MAX_ATTEMPTS ? "dropped" : "pending";
  const retryInMs = retryDelayMs(number);
  const recorded = await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(webhookDeliveries)
      .set({
        attempts: number,
        status,
        lockedUntil: null,
        nextAttemptAt: status === "pending" ? sql`now() + ${retryInMs} * interval '1 millisecond'` : sql`${webhookDeliveries.nextAttemptAt}`,
        completedAt: status === "pending" ? null : new Date(),
      })
      // Guard: only the attempt that read `attempts = number - 1` may record it.
      .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.attempts, number - 1), eq(webhookDeliveries.status, "pending")))
      .returning({ id: webhookDeliveries.id });
    if (!updated) return false;
    await tx.insert(webhookAttempts).values({
      deliveryId,
      number,
      ok: result.ok,
      statusCode: result.statusCode,
      error: result.error,
      responseExcerpt: result.excerpt,
      durationMs: result.durationMs,
      startedAt,
    });
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

/** The delivery log of one endpoint, newest first, with every attempt. */
export async function listDeliveries(db: Db, workspaceId: string, endpointId: string, paging: Paging): Promise<Page<DeliveryView>> {
  await getWebhook(db, workspaceId, endpointId);
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
  const attempts = ids.length
    ? await db.select().from(webhookAttempts).where(inArray(webhookAttempts.deliveryId, ids)).orderBy(asc(webhookAttempts.number))
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
        .filter((attempt) => attempt.deliveryId === delivery.id)
        .map((attempt) => ({
          number: attempt.number,
          ok: attempt.ok,
          status_code: attempt.statusCode,
          error: attempt.error,
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
 * Sends a sample event, in its real wire format, to one endpoint only: the first event it
 * subscribes to (test.completed when it takes every event).
 */
export async function sendTestEvent(db: Db, workspaceId: string, endpointId: string): Promise<{ delivery_id: string; event: Event }> {
  const endpoint = await getWebhook(db, workspaceId, endpointId);
  const type: EventType = endpoint.events.find(isEventType) ?? "test.completed";
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
