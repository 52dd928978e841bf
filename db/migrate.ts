import path from "node:path";
import type { Database } from "./client";

export const migrationsFolder = path.join(process.cwd(), "db", "migrations");

/** Applies the generated migrations; on PostgreSQL one instance at a time (advisory lock). */
export async function migrateDatabase(database: Database): Promise<void> {
  if (database.kind === "pglite") {
    const { migrate } = await import("drizzle-orm/pglite/migrator");
    await migrate(database.db as never, { migrationsFolder });
    return;
  }
  const { migrate } = await import("drizzle-orm/postgres-js/migrator");
  await withAdvisoryLock(database, async () => {
    await migrate(database.db as never, { migrationsFolder });
  });
}

const MIGRATION_LOCK = 7_212_026;

/** Holds a session-level advisory lock on a connection of its own while `fn` runs. */
export async function withAdvisoryLock<T>(database: Database, fn: () => Promise<T>): Promise<T> {
  if (database.kind === "pglite") return fn();
  const client = (database.db as unknown as { $client: import("postgres").Sql }).$client;
  const reserved = await client.reserve();
  try {
    await reserved`select pg_advisory_lock(${MIGRATION_LOCK})`;
    return await fn();
  } finally {
    await reserved`select pg_advisory_unlock(${MIGRATION_LOCK})`.catch(() => {});
    reserved.release();
  }
}
