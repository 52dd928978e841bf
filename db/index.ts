import { openDatabase, type Database, type Db } from "./client";
import { migrateDatabase, withAdvisoryLock } from "./migrate";
import { seedCatalog } from "./seed";

export type { Database, Db } from "./client";

/** `db.execute()` answers `{ rows }` on PGlite and an array on postgres.js: hidden here. */
export function rowsOf<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : ((result as { rows?: T[] }).rows ?? []);
}

type Holder = { ready?: Promise<Database> };
// One database per process, kept on globalThis so dev-mode reloads do not open a second one.
const holder = ((globalThis as { __certifyDb?: Holder }).__certifyDb ??= {});

/** Opens the configured database once per process, applies migrations and seeds the catalog. */
export function getDatabase(): Promise<Database> {
  holder.ready ??= prepare().catch((error) => {
    holder.ready = undefined;
    throw error;
  });
  return holder.ready;
}

export async function getDb(): Promise<Db> {
  return (await getDatabase()).db;
}

async function prepare(): Promise<Database> {
  const database = await openDatabase({ url: process.env.DATABASE_URL || undefined });
  await prepareDatabase(database);
  return database;
}

/** Migrations, then the catalog seed; safe to run from several instances at once. */
export async function prepareDatabase(database: Database): Promise<void> {
  await migrateDatabase(database);
  await withAdvisoryLock(database, () => seedCatalog(database.db));
}

/** Tests and scripts install their own database as the process's one. */
export function installDatabase(database: Database): void {
  holder.ready = Promise.resolve(database);
}

export async function closeDatabase(): Promise<void> {
  const ready = holder.ready;
  holder.ready = undefined;
  if (ready) await (await ready).close();
}
