import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db";
import { HEALTH_WINDOW_HOURS, type EndpointHealthList } from "./schemas";

type Row = {
  endpoint_id: string;
  attempts: number | string;
  succeeded: number | string;
  p50: number | string | null;
  failing_since: Date | string | null;
  health_mailed_at: Date | string | null;
};

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/**
 * Each endpoint's figures over the HEALTH_WINDOW_HOURS before `at`: its completed attempts
 * (an interrupted one has no answer and is left out), the share answered 2xx, and the median
 * duration (p50, `percentile_cont`, rounded to the millisecond). Only deliveries that could
 * hold an attempt in the window are read: still pending, or completed inside it.
 */
export async function endpointHealth(db: Db, workspaceId: string, at: Date = new Date()): Promise<EndpointHealthList> {
  const since = new Date(at.getTime() - HEALTH_WINDOW_HOURS * 3_600_000).toISOString();
  const until = at.toISOString();
  const rows = rowsOf<Row>(
    await db.execute(sql`
      select e.id as endpoint_id,
             count(a.id)::int as attempts,
             count(a.id) filter (where a.ok)::int as succeeded,
             percentile_cont(0.5) within group (order by a.duration_ms) as p50,
             e.failing_since, e.health_mailed_at
      from webhook_endpoints e
      left join webhook_deliveries d on d.endpoint_id = e.id and (d.status = 'pending' or d.completed_at >= ${since}::timestamptz)
      left join webhook_attempts a on a.delivery_id = d.id and a.state = 'completed'
        and a.started_at >= ${since}::timestamptz and a.started_at <= ${until}::timestamptz
      where e.workspace_id = ${workspaceId}
      group by e.id, e.created_at
      order by e.created_at desc, e.id`),
  );
  return {
    window_hours: HEALTH_WINDOW_HOURS,
    data: rows.map((row) => {
      const attempts = Number(row.attempts);
      const succeeded = Number(row.succeeded);
      return {
        endpoint_id: row.endpoint_id,
        attempts,
        succeeded,
        success_rate: attempts ? succeeded / attempts : null,
        p50_latency_ms: row.p50 === null ? null : Math.round(Number(row.p50)),
        failing_since: iso(row.failing_since),
        health_mailed_at: iso(row.health_mailed_at),
      };
    }),
  };
}
