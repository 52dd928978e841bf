import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import type { TestProject } from "vitest/node";
import { openDatabase } from "@/db/client";
import { prepareDatabase } from "@/db";
import { FAST_COMMITS } from "./fast-commits";

declare module "vitest" {
  export interface ProvidedContext {
    /** A migrated and seeded database every test file starts from (see ./db.ts). */
    databaseTemplate: { kind: "pglite"; file: string } | { kind: "postgres"; name: string };
  }
}

/**
 * Migrates and seeds one database before any test file runs, and lets every file start from
 * a copy of it: on PGlite a dump of the data directory (loading one takes a quarter of the
 * time of creating an empty cluster, and skips the migrations and the catalog seed), on
 * PostgreSQL a template database (`create database … template …`).
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
    await database.close();
    project.provide("databaseTemplate", { kind: "postgres", name });
    return async () => {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    };
  }
  const database = await openDatabase({ dataDir: "memory://" });
  await prepareDatabase(database);
  const dump = await database.dump!();
  await database.close();
  const file = path.join(os.tmpdir(), `certify-test-db-${process.pid}-${randomBytes(4).toString("hex")}.tar`);
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide("databaseTemplate", { kind: "pglite", file });
  return () => fs.rmSync(file, { force: true });
}
