import { randomBytes } from "node:crypto";
import fs from "node:fs";
import type { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import { inject } from "vitest";
import { pgliteDatabase } from "@/db/client";
import { FAST_COMMITS } from "./fast-commits";
import { resetSql, type Template } from "./template";
import type { Database } from "@/db/types";
import { closeDatabase, installDatabase, openDatabase, prepareDatabase } from "@/lib/platform/database";

export type TestDatabase = Database & { drop(): Promise<void> };

/**
 * A database for one test file, as the migrated and seeded one of ./global-setup.ts: an
 * in-memory PGlite by default, or a database on the PostgreSQL server of DATABASE_URL. It
 * becomes the process's database, so route handlers under test use it.
 *
 * A worker process keeps the databases its files used and hands each next file one put back
 * as the template was (./template.ts: every table emptied, the catalog and the sequences
 * restored): starting a PGlite from the 40 MB copy took about a second of CPU per file, and a
 * PostgreSQL copy of the template a checkpoint; putting one back takes a tenth of that. What a
 * file leaves in a session does not carry over: a PGlite's session is discarded (prepared
 * statements, LISTEN, settings, advisory locks), and on PostgreSQL every connection a file
 * left open is ended.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const url = process.env.DATABASE_URL;
  const provided = inject("databaseTemplate");
  let database: Database;
  if (url && provided?.kind === "postgres") database = await pooledPostgres(url, provided.name, provided.template);
  else if (!url && provided?.kind === "pglite") database = await pooledPglite(provided.file, provided.template);
  else {
    // Outside the configured suite (no global setup): a database of its own, migrated here.
    database = await openDatabase(url ? { url, poolMax: 20 } : { dataDir: "memory://" });
    await prepareDatabase(database);
  }
  installDatabase(database);
  return {
    ...database,
    async drop() {
      await closeDatabase();
    },
  };
}

export const onPostgres = Boolean(process.env.DATABASE_URL);

/** A worker's databases (kept on globalThis: every file starts with fresh modules, tests/helpers/per-file.ts). */
type Pooled = { free: boolean } & ({ kind: "pglite"; client: PGlite } | { kind: "postgres"; url: string });
const pool: Pooled[] = ((globalThis as { __certifyTestDatabases?: Pooled[] }).__certifyTestDatabases ??= []);

function take<K extends Pooled["kind"]>(kind: K): Extract<Pooled, { kind: K }> | undefined {
  const entry = pool.find((candidate): candidate is Extract<Pooled, { kind: K }> => candidate.free && candidate.kind === kind);
  if (entry) entry.free = false;
  return entry;
}

async function pooledPglite(dumpFile: string, template: Template): Promise<Database> {
  let entry = take("pglite");
  if (entry) {
    await entry.client.exec("discard all"); // not inside a transaction block
    await entry.client.exec(resetSql(template));
  } else {
    const { PGlite } = await import("@electric-sql/pglite");
    entry = { kind: "pglite", client: await PGlite.create("memory://", { loadDataDir: new Blob([fs.readFileSync(dumpFile)]) }), free: false };
    pool.push(entry);
  }
  const taken = entry;
  // Closing it (a file's drop(), or the leftover check after a file) hands it back.
  return pgliteDatabase(taken.client, async () => {
    taken.free = true;
  });
}

async function pooledPostgres(url: string, templateName: string, template: Template): Promise<Database> {
  let entry = take("postgres");
  if (entry) {
    const admin = postgres(entry.url, { max: 1, onnotice: () => {} });
    try {
      await admin`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`;
      await admin.unsafe(resetSql(template));
    } finally {
      await admin.end();
    }
  } else {
    // Named after the template: the global teardown drops them all.
    const name = `${templateName}_${randomBytes(4).toString("hex")}`;
    const admin = postgres(url, { max: 1, onnotice: () => {} });
    try {
      await admin.unsafe(`create database ${name} template ${templateName}`);
      await admin.unsafe(FAST_COMMITS(name));
    } finally {
      await admin.end();
    }
    const target = new URL(url);
    target.pathname = `/${name}`;
    entry = { kind: "postgres", url: target.toString(), free: false };
    pool.push(entry);
  }
  const taken = entry;
  const database = await openDatabase({ url: taken.url, poolMax: 20 });
  return {
    ...database,
    async close() {
      await database.close();
      taken.free = true;
    },
  };
}
