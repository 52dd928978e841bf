import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { type AttemptState, type Event, events, webhookAttempts, webhookDeliveries, type WebhookService } from "@/db/schema";
import { offsetOf, page, type Page, type Paging } from "@/lib/kernel/paging";
import { notFound } from "@/lib/kernel/errors";
import { certificationEvent, competitionEvents, eventCatalog, type EventType, isCompetitionEvent } from "@/lib/platform/pipeline/channels/webhook/events";
import { newId } from "@/lib/kernel/ids";
import { notifyOutbox } from "@/lib/platform/pipeline/outbox/notify";
import { getWebhook } from "./endpoints";
import type { DeliveryView } from "./schemas";
import { sampleEventData } from "./samples";
import { INTERRUPTED, leaseOver } from "@/lib/platform/pipeline/channels/webhook/attempts";
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
