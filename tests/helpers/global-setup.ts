import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import type { TestProject } from "vitest/node";
import { FAST_COMMITS } from "./fast-commits";
import { keepTemplate, type Template } from "./template";
import { openDatabase, prepareDatabase } from "@/lib/platform/database";

declare module "vitest" {
  export interface ProvidedContext {
    /** A migrated and seeded database every test file starts from (see ./db.ts), and what it holds (./template.ts). */
    databaseTemplate: ({ kind: "pglite"; file: string } | { kind: "postgres"; name: string }) & { template: Template };
  }
}

/**
 * Migrates and seeds one database before any test file runs, and lets every file start from
 * it: on PGlite a dump of the data directory (a worker loads it once, ./db.ts), on PostgreSQL
 * a template database (`create database … template …`, once per worker). Between files a
 * worker puts its database back as the template was (./template.ts).
 */
export default async function setup(project: TestProject) {
  const url = process.env.DATABASE_URL;
  if (url) {
    const name = `t_template_${randomBytes(6).toString("hex")}`;
    const admin = postgres(url, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    await admin.unsafe(FAST_COMMITS(name));
    const target = new URL(url);
    target.pathname = `/${name}`;
    const database = await openDatabase({ url: target.toString(), poolMax: 2 });
    await prepareDatabase(database);
    const template = await keepTemplate(database);
    await database.close();
    project.provide("databaseTemplate", { kind: "postgres", name, template });
    return async () => {
      // The workers' databases are named after the template (./db.ts).
      const made = await admin<{ datname: string }[]>`select datname from pg_database where datname like ${`${name}%`}`;
      for (const { datname } of made) await admin.unsafe(`drop database if exists ${datname} with (force)`);
      await admin.end();
    };
  }
  const database = await openDatabase({ dataDir: "memory://" });
  await prepareDatabase(database);
  const template = await keepTemplate(database);
  const dump = await database.dump!();
  await database.close();
  const file = path.join(os.tmpdir(), `certify-test-db-${process.pid}-${randomBytes(4).toString("hex")}.tar`);
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide("databaseTemplate", { kind: "pglite", file, template });
  return () => fs.rmSync(file, { force: true });
}
