import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { MigrationMeta } from "drizzle-orm/migrator";
import { rowsOf } from "./rows";
import { sealPlaintextColumns, type Seal } from "./sealed";
import type { Database, Db } from "./types";

export const migrationsFolder = path.join(process.cwd(), "db", "migrations");

/** What data steps need from outside db/: the application key's sealing (lib/platform/security/sealing.ts). */
export type MigrationTools = { seal?: Seal };

/**
 * Work that SQL cannot do, run between two generated migrations: `before` names the
 * migration it must precede. Each step is idempotent (it may run again after a crash).
 */
const dataSteps: { before: string; run(db: Db, tools: MigrationTools): Promise<unknown> }[] = [
  {
    // Seal the plaintext tokens and webhook secrets (AES-GCM needs the key, which SQL does not
    // have) after 0023 added the columns; 0024 checks that every row is done, 0025 drops the plaintext.
    before: "0024_tokens_at_rest",
    run(db, { seal }) {
      if (!seal) throw new Error("Migrating past 0023 seals tokens: migrateDatabase needs the sealing function (db/index.ts passes it).");
      return sealPlaintextColumns(db, seal);
    },
  },
];

/**
 * Applies the generated migrations, with the data steps between them; on PostgreSQL one
 * instance at a time (advisory lock), over the direct connection (DATABASE_DIRECT_URL), never
 * through a transaction-mode pooler.
 */
export async function migrateDatabase(database: Database, tools: MigrationTools = {}): Promise<void> {
  if (database.kind === "pglite") return applyMigrations(database.db, tools);
  await withAdvisoryLock(database, (db) => applyMigrations(db, tools));
}

async function applyMigrations(db: Db, tools: MigrationTools): Promise<void> {
  const { readMigrationFiles } = await import("drizzle-orm/migrator");
  const migrations = readMigrationFiles({ migrationsFolder });
  const tags = (JSON.parse(fs.readFileSync(path.join(migrationsFolder, "meta", "_journal.json"), "utf8")) as { entries: { tag: string }[] }).entries.map((entry) => entry.tag);
  const applied = await lastApplied(db);
  for (const step of dataSteps) {
    const index = tags.indexOf(step.before);
    if (index < 0) throw new Error(`Data step before ${step.before}: no such migration in the journal.`);
    if (applied !== null && applied >= migrations[index].folderMillis) continue;
    await applyUpTo(db, migrations.slice(0, index));
    await step.run(db, tools);
  }
  await applyUpTo(db, migrations);
}

/**
 * What drizzle-orm's own migrators do (`drizzle-orm/pglite/migrator`, `…/postgres-js/migrator`:
 * `db.dialect.migrate(readMigrationFiles(config), db.session, config)`), over a prefix of the
 * journal: the migrations of `migrations` not applied yet, in one transaction.
 */
async function applyUpTo(db: Db, migrations: MigrationMeta[]): Promise<void> {
  const internals = db as unknown as { dialect: { migrate(m: MigrationMeta[], session: unknown, config: { migrationsFolder: string }): Promise<void> }; session: unknown };
  await internals.dialect.migrate(migrations, internals.session, { migrationsFolder });
}

/** When the newest applied migration was generated (drizzle's `created_at`), or null on an empty database. */
async function lastApplied(db: Db): Promise<number | null> {
  const [{ present }] = rowsOf<{ present: boolean }>(await db.execute(sql`select to_regclass('drizzle.__drizzle_migrations') is not null as present`));
  if (!present) return null;
  const [{ created }] = rowsOf<{ created: string | null }>(await db.execute(sql`select max(created_at)::text as created from drizzle.__drizzle_migrations`));
  return created === null ? null : Number(created);
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
