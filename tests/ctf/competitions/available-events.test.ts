import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { competitionEvents, eventCatalog } from "@/lib/platform/pipeline/channels/webhook/events";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { createTrainer } from "../../helpers/fixtures";
import { client, expectStatus } from "../../helpers/competition";

/**
 * `available_events` is the authoritative list of the competition events: exactly the nine
 * of the specification. The catalog is compared with what the code actually emits, read from
 * the source: every `publishEvent(` call in lib/ (and app/) and the event-type literal it
 * passes. An event emitted but not in the catalog, or catalogued but never emitted, fails
 * here; so does a competition event missing from `available_events`, or `test.completed`
 * (the certification service's event, sent to test-result endpoints only) listed there.
 */

const specEvents = [
  "ctf.deployed",
  "ctf.archived",
  "ctf.deleted",
  "challenge.published",
  "challenge.unpublished",
  "deployment.deployed",
  "deployment.stopped",
  "member.invited",
  "member.joined",
];

const root = path.resolve(__dirname, "../../..");

function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...sourceFiles(full));
    else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) files.push(full);
  }
  return files;
}

/** Removes comments, so a call in a comment or a doc example does not count. */
function stripComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, " ").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

type CallSite = { file: string; line: number; args: string; type?: string };

/** Every `publishEvent(` call (not its declaration) with the argument list up to the data object. */
function publishEventCalls(files: string[]): CallSite[] {
  const sites: CallSite[] = [];
  for (const file of files) {
    const source = stripComments(fs.readFileSync(file, "utf8"));
    for (const match of source.matchAll(/\bpublishEvent\s*\(/g)) {
      const before = source.slice(Math.max(0, match.index - 20), match.index);
      if (/function\s+$/.test(before)) continue;
      // The third argument is the event type: read up to the data object or the call's end.
      const args = source.slice(match.index + match[0].length).split(/[{)]/)[0];
      const parts = args.split(",").map((part) => part.trim());
      const literal = parts[2]?.match(/^(["'`])([^"'`]+)\1$/);
      sites.push({ file: path.relative(root, file), line: source.slice(0, match.index).split("\n").length, args, type: literal?.[2] });
    }
  }
  return sites;
}

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.drop());

describe("available_events is the nine competition events; the catalog is the set of events the code emits", () => {
  // The domain (lib/) emits; app/ is scanned too, in case a route handler ever does.
  const sites = publishEventCalls([...sourceFiles(path.join(root, "lib")), ...sourceFiles(path.join(root, "app"))]);
  const emitted = [...new Set(sites.map((site) => site.type))].sort();

  it("finds the publishEvent calls, each with a literal event type", () => {
    expect(sites.length).toBeGreaterThanOrEqual(10);
    const withoutLiteral = sites.filter((site) => !site.type).map((site) => `${site.file}:${site.line} publishEvent(${site.args}`);
    expect(withoutLiteral, "publishEvent calls whose event type is not a string literal").toEqual([]);
  });

  it("the catalog equals the emitted set: the nine competition events and test.completed", () => {
    expect(Object.keys(eventCatalog).sort()).toEqual(emitted);
    expect(emitted).toEqual([...specEvents, "test.completed"].sort());
  });

  it("GET /api/v1/webhooks available_events is exactly the nine of the spec, each described", async () => {
    const { secret } = await createTrainer(database.db, { scopes: ["ctf:read"] });
    const body = expectStatus(await client(secret).listWebhooks(), 200);
    const listed = body.available_events as string[];
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual([...specEvents].sort());
    expect(listed).not.toContain("test.completed");
    expect(Object.keys(body.event_descriptions).sort()).toEqual([...specEvents].sort());
    expect([...competitionEvents].sort()).toEqual([...specEvents].sort());
  });

  it("the scanner itself: sees multi-line calls, skips declarations and comments, flags a non-literal type", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "scan-"));
    try {
      const file = path.join(dir, "sample.ts");
      fs.writeFileSync(
        file,
        [
          "export async function publishEvent<T>(tx: Db, workspaceId: string, type: T, data: unknown) {}",
          "// await publishEvent(tx, ws, \"commented.out\", {});",
          "/* publishEvent(tx, ws, \"block.comment\", {}) */",
          "await publishEvent(",
          "  tx,",
          "  row.workspaceId,",
          "  'multi.line',",
          "  { a: 1 },",
          ");",
          "await publishEvent(tx, ws, dynamicType, data);",
        ].join("\n"),
      );
      const found = publishEventCalls([file]);
      expect(found.map((site) => site.type)).toEqual(["multi.line", undefined]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
