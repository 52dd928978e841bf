import path from "node:path";
import type { Database, Db } from "./client";

export const migrationsFolder = path.join(process.cwd(), "db", "migrations");

/**
 * Applies the generated migrations; on PostgreSQL one instance at a time (advisory lock),
 * over the direct connection (DATABASE_DIRECT_URL), never through a transaction-mode pooler.
 */
export async function migrateDatabase(database: Database): Promise<void> {
  if (database.kind === "pglite") {
    const { migrate } = await import("drizzle-orm/pglite/migrator");
    await migrate(database.db as never, { migrationsFolder });
    return;
  }
  const { migrate } = await import("drizzle-orm/postgres-js/migrator");
  await withAdvisoryLock(database, async (db) => {
    await migrate(db as never, { migrationsFolder });
  });
}

const MIGRATION_LOCK = 7_212_026;

/**
 * Holds a session-level advisory lock on a direct connection of its own while `fn` runs
 * with the direct database (a session lock taken through a transaction-mode pooler would
 * land on whichever server connection the pooler picked, and its unlock on another).
 */
export async function withAdvisoryLock<T>(database: Database, fn: (db: Db) => Promise<T>): Promise<T> {
  return database.direct(async ({ db, sql }) => {
    if (!sql) return fn(db);
    const reserved = await sql.reserve();
    try {
      await reserved`select pg_advisory_lock(${MIGRATION_LOCK})`;
      return await fn(db);
    } finally {
      await reserved`select pg_advisory_unlock(${MIGRATION_LOCK})`.catch(() => {});
      reserved.release();
    }
  });
}
