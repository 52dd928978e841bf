#!/usr/bin/env node
/**
 * Runs a command against a fresh PostgreSQL database, dropped afterwards:
 *   node scripts/with-pg-db.mjs vitest run
 * The server comes from PG_ADMIN_URL (default postgres://postgres@127.0.0.1:5432/postgres);
 * the command sees DATABASE_URL pointing at the new database. Its commits do not wait for the
 * disk (synchronous_commit = off): nothing a test sees changes, only a server crash could lose
 * the last commits.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import postgres from "postgres";

const adminUrl = process.env.PG_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const name = `run_${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error("usage: node scripts/with-pg-db.mjs <command> [args…]");
  process.exit(2);
}

async function admin(statement) {
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(statement);
  } finally {
    await sql.end();
  }
}

await admin(`create database ${name}`);
// A throwaway database: commits need not wait for the disk (see tests/helpers/fast-commits.ts).
await admin(`alter database ${name} set synchronous_commit = off`);
const url = new URL(adminUrl);
url.pathname = `/${name}`;
console.log(`[with-pg-db] database ${name} on ${url.host}`);

const child = spawn(command, args, { stdio: "inherit", env: { ...process.env, DATABASE_URL: url.toString() }, shell: false });
const forward = (signal) => child.kill(signal);
process.on("SIGINT", forward);
process.on("SIGTERM", forward);
const code = await new Promise((resolve) => child.on("exit", (status, signal) => resolve(status ?? (signal ? 1 : 0))));
await admin(`drop database if exists ${name} with (force)`).catch((error) => console.error(`[with-pg-db] drop failed: ${error.message}`));
process.exit(code);
