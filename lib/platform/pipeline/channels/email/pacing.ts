import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db";

/**
 * The pace of calls to a provider, shared by every instance of the app: one row per
 * provider in `provider_pacing` holds the next free slot, and each call reserves one with a
 * single atomic upsert on the database clock. N instances therefore keep one rate together
 * (a per-instance pace would multiply with the instance count). The same SQL runs on PGlite.
 */

export type Slot =
  /** The slot is reserved: call the provider after `waitMs`. */
  | { granted: true; waitMs: number }
  /** The next free slot is further away than the caller may wait: nothing reserved; come back in `retryInMs`. */
  | { granted: false; retryInMs: number };

const millis = (ms: number) => sql`${Math.max(0, Math.round(ms))} * interval '1 millisecond'`;

/**
 * Reserves the next slot of `name` (one every `intervalMs`) unless it lies more than
 * `maxWaitMs` ahead. The reserved slot is `greatest(next_slot_at, now)`; the row moves on by
 * one interval.
 */
export async function reserveSlot(db: Db, name: string, intervalMs: number, maxWaitMs: number): Promise<Slot> {
  const reserved = rowsOf<{ ms: number | string }>(
    await db.execute(sql`
      insert into provider_pacing as p (name, next_slot_at) values (${name}, clock_timestamp() + ${millis(intervalMs)})
      on conflict (name) do update
        set next_slot_at = greatest(p.next_slot_at, clock_timestamp()) + ${millis(intervalMs)}
        where p.next_slot_at <= clock_timestamp() + ${millis(maxWaitMs)}
      returning (extract(epoch from (p.next_slot_at - clock_timestamp())) * 1000)::float8 as ms`),
  );
  if (reserved.length) return { granted: true, waitMs: Math.max(0, Number(reserved[0].ms) - intervalMs) };
  const [row] = rowsOf<{ ms: number | string }>(
    await db.execute(sql`select (extract(epoch from (next_slot_at - clock_timestamp())) * 1000)::float8 as ms from provider_pacing where name = ${name}`),
  );
  return { granted: false, retryInMs: Math.max(0, Number(row?.ms ?? 0)) };
}

/**
 * Pushes the shared pace to at least `ms` from now (a 429's Retry-After): every instance's
 * next reservation then starts after it. Never pulls a later pace earlier.
 */
export async function holdPace(db: Db, name: string, ms: number): Promise<void> {
  await db.execute(sql`
    insert into provider_pacing as p (name, next_slot_at) values (${name}, clock_timestamp() + ${millis(ms)})
    on conflict (name) do update set next_slot_at = greatest(p.next_slot_at, excluded.next_slot_at)`);
}
