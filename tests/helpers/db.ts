import { randomBytes } from "node:crypto";
import fs from "node:fs";
import postgres from "postgres";
import { inject } from "vitest";
import { openDatabase, type Database } from "@/db/client";
import { closeDatabase, prepareDatabase, installDatabase } from "@/db";
import { FAST_COMMITS } from "./fast-commits";

export type TestDatabase = Database & { drop(): Promise<void> };

/**
 * A fresh database for one test file: in-memory PGlite by default, or a new database on
 * the PostgreSQL server of DATABASE_URL (dropped afterwards). Both start as a copy of the
 * migrated and seeded one made once per run (./global-setup.ts). It becomes the process's
 * database, so route handlers under test use it.
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
  } else {
    const loadDataDir = template?.kind === "pglite" ? new Blob([fs.readFileSync(template.file)]) : undefined;
    database = await openDatabase({ dataDir: "memory://", loadDataDir });
  }
  if (!template) await prepareDatabase(database);
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
