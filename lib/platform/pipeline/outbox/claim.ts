import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db";
import { leaseMs } from "./schedule";

/** The three work queues the worker drains, each a table with a status, a due time and a lease. */
const queues = {
  email_messages: { ready: "queued", due: "next_attempt_at" },
  webhook_deliveries: { ready: "pending", due: "next_attempt_at" },
  scheduled_steps: { ready: "pending", due: "run_at" },
} as const;

export type WorkQueue = keyof typeof queues;

/**
 * Claims up to `limit` due rows of a queue for this worker, oldest first: `FOR UPDATE SKIP
 * LOCKED` so two instances never take the same row, and a lease (`locked_until`) so the
 * rows of a worker that crashed come back once it expires.
 */
export async function claimDue(db: Db, queue: WorkQueue, limit: number): Promise<string[]> {
  if (limit <= 0) return [];
  const { ready, due } = queues[queue];
  const table = sql.identifier(queue);
  const dueAt = sql.identifier(due);
  const rows = await db.execute(sql`
    update ${table} set locked_until = now() + ${leaseMs()} * interval '1 millisecond'
    where id in (
      select id from ${table}
      where status = ${ready} and ${dueAt} <= now() and (locked_until is null or locked_until < now())
      order by ${dueAt}
      limit ${limit}
      for update skip locked
    )
    returning id`);
  return rowsOf<{ id: string }>(rows).map((row) => row.id);
}

/**
 * Milliseconds until the earliest row of any queue can be claimed (negative when one is due
 * already): its due time, or the end of its lease when a worker holds it. Null when no
 * queue has a waiting row. The worker sleeps until then instead of a whole poll interval,
 * so a retry due in 400 ms runs after about 400 ms.
 */
export async function msUntilNextDue(db: Db): Promise<number | null> {
  const earliest = Object.entries(queues).map(([queue, { ready, due }]) => {
    const dueAt = sql.identifier(due);
    return sql`select min(greatest(${dueAt}, coalesce(locked_until, ${dueAt}))) as at from ${sql.identifier(queue)} where status = ${ready}`;
  });
  const rows = await db.execute(
    sql`select (extract(epoch from (min(at) - now())) * 1000)::float8 as ms from (${sql.join(earliest, sql` union all `)}) as due`,
  );
  const [row] = rowsOf<{ ms: number | string | null }>(rows);
  return row?.ms === null || row?.ms === undefined ? null : Number(row.ms);
}
