import { and, asc, desc, eq, gte, inArray, sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db";
import { type AttemptState, type DeliveryStatus, type Event, events, type WebhookAttempt, webhookAttempts, type WebhookDelivery, webhookDeliveries, webhookEndpoints, type WebhookService } from "@/db/schema";
import { offsetOf, page, type Page, type Paging } from "@/lib/kernel/paging";
import { conflict, notFound } from "@/lib/kernel/errors";
import { certificationEvent, competitionEvents, eventCatalog, type EventType, isCompetitionEvent } from "@/lib/platform/pipeline/channels/webhook/events";
import { newId } from "@/lib/kernel/ids";
import { notifyOutbox } from "@/lib/platform/pipeline/outbox/notify";
import { getWebhook, lockEndpoint } from "./endpoints";
import type { DeliveryView } from "./schemas";
import { sampleEventData } from "./samples";
import { aboutEvent } from "./subjects";
import { INTERRUPTED, leaseOver } from "@/lib/platform/pipeline/channels/webhook/attempts";

/** The delivery log's filters (GET …/deliveries): each given one narrows it. */
export type DeliveryFilters = { status?: DeliveryStatus; event?: string; since?: Date };

const DISABLED = "The endpoint is disabled: enable it first (PATCH with enabled: true).";
/** The delivery log of one endpoint, newest first, with every attempt; given a service, an endpoint of the other one is not found. */
export async function listDeliveries(
  db: Db,
  workspaceId: string,
  endpointId: string,
  paging: Paging & DeliveryFilters,
  service?: WebhookService,
): Promise<Page<DeliveryView>> {
  await getWebhook(db, workspaceId, endpointId, service);
  const where = and(
    eq(webhookDeliveries.endpointId, endpointId),
    eq(webhookDeliveries.workspaceId, workspaceId),
    paging.status ? eq(webhookDeliveries.status, paging.status) : undefined,
    paging.event ? sql`${webhookDeliveries.eventId} in (select ${events.id} from ${events} where ${events.type} = ${paging.event} and ${events.workspaceId} = ${workspaceId})` : undefined,
    paging.since ? gte(webhookDeliveries.createdAt, paging.since) : undefined,
  );
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({ delivery: webhookDeliveries, type: events.type, data: events.data })
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
    rows.map(({ delivery, type, data }) => deliveryViewOf(delivery, type, data, attempts)),
    paging,
    total,
  );
}

type AttemptRow = { attempt: WebhookAttempt; state: AttemptState };

/** One delivery of the log, with its attempts, what it was about and whether it was a sample. */
function deliveryViewOf(delivery: WebhookDelivery, type: string, data: Record<string, unknown>, attempts: AttemptRow[]): DeliveryView {
  const about = aboutEvent(type, data);
  return {
    id: delivery.id,
    event_id: delivery.eventId,
    event: type,
    status: delivery.status,
    next_attempt_at: delivery.status === "pending" ? delivery.nextAttemptAt.toISOString() : null,
    created_at: delivery.createdAt.toISOString(),
    redelivery_of: delivery.redeliveryOf,
    about,
    kind: about.sample ? "test_event" : "event",
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
  };
}

/**
 * A fresh delivery of the same event (same event id) to the same endpoint. Given `of`, the
 * delivery must be one of that endpoint of that service (the REST routes); a disabled
 * endpoint refuses (409: enable it first).
 */
export async function redeliver(db: Db, workspaceId: string, deliveryId: string, of?: { endpointId: string; service: WebhookService }): Promise<{ id: string }> {
  return db.transaction(async (tx) => {
    if (of) await lockEndpoint(tx, workspaceId, of.service, of.endpointId);
    const [original] = await tx
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.workspaceId, workspaceId), of ? eq(webhookDeliveries.endpointId, of.endpointId) : undefined));
    if (!original) throw notFound("Delivery");
    const [endpoint] = await tx.select({ enabled: webhookEndpoints.enabled }).from(webhookEndpoints).where(eq(webhookEndpoints.id, original.endpointId));
    if (!endpoint?.enabled) throw conflict(DISABLED);
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

/**
 * Queues again, once each, the deliveries of one endpoint created since `since` that were
 * dropped or not sent (while it was disabled) and have not been delivered again yet (no
 * redelivery of theirs, no delivery of the same event pending or delivered): a new
 * delivery of the same event (same event id, `redelivery_of` the old one), one per event.
 * The endpoint row is locked first, so two calls at once run one after the other and the
 * second finds the first's redeliveries: nothing is queued twice. A disabled endpoint
 * refuses (409).
 */
export async function recoverDeliveries(db: Db, workspaceId: string, service: WebhookService, endpointId: string, since: Date): Promise<{ queued: number }> {
  return db.transaction(async (tx) => {
    const endpoint = await lockEndpoint(tx, workspaceId, service, endpointId);
    if (!endpoint.enabled) throw conflict(DISABLED);
    const missed = rowsOf<{ id: string; event_id: string }>(
      await tx.execute(sql`
        select distinct on (d.event_id) d.id, d.event_id from webhook_deliveries d
        where d.endpoint_id = ${endpointId} and d.workspace_id = ${workspaceId}
          and d.status in ('dropped', 'not_sent') and d.created_at >= ${since.toISOString()}::timestamptz
          and not exists (select 1 from webhook_deliveries r where r.redelivery_of = d.id)
          and not exists (select 1 from webhook_deliveries p where p.endpoint_id = d.endpoint_id and p.event_id = d.event_id and p.status in ('pending', 'delivered'))
        order by d.event_id, d.created_at desc, d.id desc`),
    );
    if (missed.length === 0) return { queued: 0 };
    await tx
      .insert(webhookDeliveries)
      .values(missed.map((row) => ({ id: newId("dlv"), workspaceId, eventId: row.event_id, endpointId, redeliveryOf: row.id })));
    await notifyOutbox(tx);
    return { queued: missed.length };
  });
}
