import { randomBytes } from "node:crypto";
import fs from "node:fs";
import type { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import { inject } from "vitest";
import { openDatabase, pgliteDatabase, type Database } from "@/db/client";
import { closeDatabase, prepareDatabase, installDatabase } from "@/db";
import { FAST_COMMITS } from "./fast-commits";

export type TestDatabase = Database & { drop(): Promise<void> };

/**
 * A fresh database for one test file: in-memory PGlite by default, or a new database on
 * the PostgreSQL server of DATABASE_URL (dropped afterwards). Both start as a copy of the
 * migrated and seeded one made once per run (./global-setup.ts). It becomes the process's
 * database, so route handlers under test use it.
 *
 * On PGlite a worker process keeps the instances its files used and hands each next file one
 * put back as the template left it (`resetToTemplate`): every table emptied, the catalog and
 * the sequences as they were, the session discarded (prepared statements, LISTEN, settings,
 * advisory locks). Starting a PGlite from the 40 MB copy took a second of CPU per file;
 * putting one back takes a tenth of that.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const url = process.env.DATABASE_URL;
  const provided = inject("databaseTemplate");
  const template = provided?.kind === (url ? "postgres" : "pglite") ? provided : undefined;
  let database: Database;
  let drop = async () => {};
  if (url) {
    const name = `t_${randomBytes(6).toString("hex")}`;
    const admin = postgres(url, { max: 1, onnotice: () => {} });
    await admin.unsafe(template?.kind === "postgres" ? `create database ${name} template ${template.name}` : `create database ${name}`);
    await admin.unsafe(FAST_COMMITS(name));
    await admin.end();
    const target = new URL(url);
    target.pathname = `/${name}`;
    database = await openDatabase({ url: target.toString(), poolMax: 20 });
    drop = async () => {
      const again = postgres(url, { max: 1, onnotice: () => {} });
      await again.unsafe(`drop database if exists ${name} with (force)`);
      await again.end();
    };
  } else if (template?.kind === "pglite") {
    database = await pooledPglite(template.file);
  } else {
    database = await openDatabase({ dataDir: "memory://" });
    await prepareDatabase(database);
  }
  installDatabase(database);
  return {
    ...database,
    async drop() {
      await closeDatabase();
      await drop();
    },
  };
}

export const onPostgres = Boolean(process.env.DATABASE_URL);

/** A worker's PGlite instances (kept on globalThis: every file starts with fresh modules, tests/helpers/per-file.ts). */
type Pooled = { client: PGlite; template: Template; free: boolean };
const pool: Pooled[] = ((globalThis as { __certifyTestPglites?: Pooled[] }).__certifyTestPglites ??= []);

/** What the template holds beyond its schema: the tables, those with rows (copied aside), each sequence's state. */
type Template = { tables: string[]; seeded: string[]; sequences: { name: string; value: string; called: boolean }[] };

async function pooledPglite(dumpFile: string): Promise<Database> {
  let entry = pool.find((candidate) => candidate.free);
  if (entry) {
    await resetToTemplate(entry.client, entry.template);
  } else {
    const { PGlite } = await import("@electric-sql/pglite");
    const client = await PGlite.create("memory://", { loadDataDir: new Blob([fs.readFileSync(dumpFile)]) });
    entry = { client, template: await keepTemplate(client), free: false };
    pool.push(entry);
  }
  entry.free = false;
  const taken = entry;
  // Closing it (a file's drop(), or the leftover check after a file) hands it back.
  return pgliteDatabase(taken.client, async () => {
    taken.free = true;
  });
}

const TEMPLATE_SCHEMA = "test_template";

async function keepTemplate(client: PGlite): Promise<Template> {
  const { rows: tables } = await client.query<{ name: string; rows: number }>(
    "select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1",
  );
  const seeded: string[] = [];
  for (const { name } of tables) {
    const { rows } = await client.query<{ any: boolean }>(`select exists (select from public."${name}") as any`);
    if (rows[0].any) seeded.push(name);
  }
  await client.exec(`create schema ${TEMPLATE_SCHEMA}; ${seeded.map((name) => `create table ${TEMPLATE_SCHEMA}."${name}" as table public."${name}";`).join(" ")}`);
  const { rows: sequenceNames } = await client.query<{ name: string }>("select sequence_name as name from information_schema.sequences where sequence_schema = 'public'");
  const sequences: Template["sequences"] = [];
  for (const { name } of sequenceNames) {
    const { rows } = await client.query<{ value: string; called: boolean }>(`select last_value::text as value, is_called as called from public."${name}"`);
    sequences.push({ name, ...rows[0] });
  }
  return { tables: tables.map((table) => table.name), seeded, sequences };
}

async function resetToTemplate(client: PGlite, template: Template): Promise<void> {
  await client.exec("discard all"); // not inside a transaction block
  await client.exec(
    [
      `truncate table ${template.tables.map((name) => `public."${name}"`).join(", ")} cascade;`,
      ...template.seeded.map((name) => `insert into public."${name}" overriding system value select * from ${TEMPLATE_SCHEMA}."${name}";`),
      ...template.sequences.map((sequence) => `select setval('public."${sequence.name}"', ${sequence.value}, ${sequence.called});`),
    ].join("\n"),
  );
}
