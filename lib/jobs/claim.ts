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
