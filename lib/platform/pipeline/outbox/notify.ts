import { sql } from "drizzle-orm";
import type { Db } from "@/db";

/** Channel the executors LISTEN on; NOTIFY inside a transaction fires only at its commit. */
export const OUTBOX_CHANNEL = "outbox";

/** Wakes the executors when the caller's transaction commits: a new outbox row is there to run. */
export async function notifyOutbox(tx: Db): Promise<void> {
  await tx.execute(sql`select pg_notify(${OUTBOX_CHANNEL}, '')`);
}
