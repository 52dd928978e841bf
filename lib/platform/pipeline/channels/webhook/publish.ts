import { sql, type SQL } from "drizzle-orm";
import { rowsOf, type Db } from "@/db";
import { preparedSql } from "@/db/prepared";
import type { Event } from "@/db/schema";
import { newId } from "@/lib/kernel/ids";
import { OUTBOX_CHANNEL } from "@/lib/platform/pipeline/outbox/notify";
import { eventCatalog, type EventData, type EventType, MAX_ENDPOINTS_PER_WORKSPACE } from "./events";

type PublishedRow = { id: string; workspace_id: string; type: string; data: Record<string, unknown> | string; created_ms: number | string };

/**
 * Records an event and one pending delivery per subscribed endpoint, in the caller's
 * transaction: if it rolls back nothing is sent, if it commits nothing is lost.
 *
 * One statement (one round trip inside the caller's transaction, which may hold row locks,
 * as a test submission does): the event row, a delivery for each endpoint of the event's
 * service in the workspace that subscribed to it (no events listed = all of them), and a
 * `NOTIFY outbox` — fired at commit — when there is at least one delivery. The delivery ids
 * are generated here, one per endpoint a workspace may have of a service. A disabled
 * endpoint's delivery is recorded `not_sent` (nothing is sent; `recover` can queue it later).
 */
export async function publishEvent<T extends EventType>(tx: Db, workspaceId: string, type: T, data: EventData<T>): Promise<Event> {
  return (await publish(tx, undefined, workspaceId, type, data))!;
}

/**
 * `publishEvent` guarded by a statement that runs first in the same statement: `guard` (a
 * data-modifying statement with `returning`, e.g. a conditional update) — the event is
 * recorded only if it returned a row; otherwise nothing is written and the answer is
 * undefined. One statement, atomic without a transaction: how a submission completes an
 * attempt and publishes `test.completed` in one round trip (lib/certification/taking/scoring.ts).
 */
export async function publishEventIf<T extends EventType>(db: Db, guard: SQL, workspaceId: string, type: T, data: EventData<T>): Promise<Event | undefined> {
  return publish(db, guard, workspaceId, type, data);
}

async function publish<T extends EventType>(tx: Db, guard: SQL | undefined, workspaceId: string, type: T, data: EventData<T>): Promise<Event | undefined> {
  const parsed = eventCatalog[type].data.parse(data) as Record<string, unknown>;
  const id = newId("evt");
  const deliveryIds = Array.from({ length: MAX_ENDPOINTS_PER_WORKSPACE }, () => newId("dlv")).join(",");
  const statement = sql`
      with ${guard ? sql`guard as (${guard}), ` : sql``}event as (
        insert into events (id, workspace_id, type, data)
        select ${id}, ${workspaceId}, ${type}, ${JSON.stringify(parsed)}::jsonb ${guard ? sql`where exists (select 1 from guard)` : sql``}
        returning id, workspace_id, type, data, (extract(epoch from created_at) * 1000)::float8 as created_ms
      ), targets as (
        select w.id, w.enabled, row_number() over (order by w.created_at, w.id) as n from webhook_endpoints w
        where w.workspace_id = ${workspaceId} and w.service = ${eventCatalog[type].service}
          and (cardinality(w.events) = 0 or ${type} = any(w.events))
          and exists (select 1 from event)
      ), deliveries as (
        insert into webhook_deliveries (id, workspace_id, event_id, endpoint_id, status, completed_at)
        select coalesce((string_to_array(${deliveryIds}, ','))[t.n], 'dlv_' || upper(substr(md5(random()::text), 1, 26))), ${workspaceId}, ${id}, t.id,
               case when t.enabled then 'pending' else 'not_sent' end, case when t.enabled then null else now() end
        from targets t
        returning id, status
      )
      select event.*, (select count(*) from (select pg_notify(${OUTBOX_CHANNEL}, '') from (select 1 from deliveries where status = 'pending' limit 1) one) notified)::int as notified
      from event`;
  // The guarded form is the submit's hot statement: prepared (its text is the same each time).
  const [row] = guard ? await preparedSql<PublishedRow>(tx, statement) : rowsOf<PublishedRow>(await tx.execute(statement));
  if (!row) return undefined;
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    type: row.type,
    data: typeof row.data === "string" ? (JSON.parse(row.data) as Record<string, unknown>) : row.data,
    createdAt: new Date(Math.floor(Number(row.created_ms))),
  };
}
