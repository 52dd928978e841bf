import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { migrate } from "drizzle-orm/pglite/migrator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateDatabase, migrationsFolder } from "@/db/migrate";
import { seal } from "@/lib/platform/security/sealing";
import type { Database } from "@/db/types";
import { openDatabase } from "@/lib/platform/database";

/**
 * The migration that gives each webhook endpoint its service, run over endpoints registered
 * before it: one that took only test.completed becomes a test-result endpoint; every other
 * one stays a competition endpoint and loses test.completed from its list.
 */

const SERVICE_MIGRATION = "0012_webhook_endpoint_service";

let database: Database;
let folder: string;

/** A copy of the migrations folder whose journal stops before `tag`. */
function migrationsBefore(tag: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "migrations-"));
  fs.cpSync(migrationsFolder, dir, { recursive: true });
  const journalFile = path.join(dir, "meta", "_journal.json");
  const journal = JSON.parse(fs.readFileSync(journalFile, "utf8")) as { entries: { tag: string }[] };
  const index = journal.entries.findIndex((entry) => entry.tag === tag);
  expect(index, `${tag} in the journal`).toBeGreaterThan(0);
  fs.writeFileSync(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, index) }));
  return dir;
}

beforeAll(async () => {
  database = await openDatabase({ dataDir: "memory://" });
  folder = migrationsBefore(SERVICE_MIGRATION);
});

afterAll(async () => {
  await database?.close();
  if (folder) fs.rmSync(folder, { recursive: true, force: true });
});

describe("backfill of webhook_endpoints.service", () => {
  it("classifies the endpoints registered before the column", async () => {
    await migrate(database.db as never, { migrationsFolder: folder });
    await database.query(`insert into "user" (id, email) values ('usr_m', 'm@example.test')`);
    await database.query(`insert into workspaces (id, name, owner_user_id) values ('ws_m', 'M', 'usr_m')`);
    const before: [string, string[]][] = [
      ["wh_only_test", ["test.completed"]],
      ["wh_all", []],
      ["wh_mixed", ["ctf.deployed", "test.completed"]],
      ["wh_ctf", ["ctf.deployed", "member.joined"]],
    ];
    for (const [id, events] of before) {
      await database.query(`insert into webhook_endpoints (id, workspace_id, url, events, secret, source) values ($1, 'ws_m', 'https://example.test/h', $2, 'whsec_x', 'api')`, [id, events]);
    }

    // The whole upgrade, with its data steps (later migrations seal the secret first).
    await migrateDatabase(database, { seal });

    const rows = await database.query<{ id: string; service: string; events: string[] }>(`select id, service, events from webhook_endpoints order by id`);
    expect(rows).toEqual([
      { id: "wh_all", service: "competition", events: [] },
      { id: "wh_ctf", service: "competition", events: ["ctf.deployed", "member.joined"] },
      { id: "wh_mixed", service: "competition", events: ["ctf.deployed"] },
      { id: "wh_only_test", service: "certification", events: ["test.completed"] },
    ]);
  });
});
