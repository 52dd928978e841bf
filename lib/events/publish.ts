import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { events, webhookDeliveries, webhookEndpoints, type Event } from "@/db/schema";
import { newId } from "@/lib/ids";
import { notifyOutbox } from "@/lib/outbox/notify";
import { eventCatalog, type EventData, type EventType } from "./catalog";

/**
 * Records an event and one pending delivery per subscribed endpoint, in the caller's
 * transaction: if it rolls back nothing is sent, if it commits nothing is lost.
 */
export async function publishEvent<T extends EventType>(tx: Db, workspaceId: string, type: T, data: EventData<T>): Promise<Event> {
  const parsed = eventCatalog[type].data.parse(data) as Record<string, unknown>;
  const [event] = await tx.insert(events).values({ id: newId("evt"), workspaceId, type, data: parsed }).returning();
  const endpoints = await tx
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.workspaceId, workspaceId),
        eq(webhookEndpoints.service, eventCatalog[type].service),
        sql`(cardinality(${webhookEndpoints.events}) = 0 or ${type} = any(${webhookEndpoints.events}))`,
      ),
    );
  if (endpoints.length) {
    await tx
      .insert(webhookDeliveries)
      .values(endpoints.map((endpoint) => ({ id: newId("dlv"), workspaceId, eventId: event.id, endpointId: endpoint.id })));
    await notifyOutbox(tx);
  }
  return event;
}
