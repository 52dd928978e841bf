import { monitorEventLoopDelay } from "node:perf_hooks";
import { count, eq, like } from "drizzle-orm";
import { strToU8, zipSync } from "fflate";
import { describe, expect, it, vi } from "vitest";
import * as importRoute from "@/app/api/v1/ctfs/[ctf_id]/import/ctfd/route";
import * as openapiRoute from "@/app/api/openapi.json/route";
import * as fileRoute from "@/app/api/v1/ctfs/[ctf_id]/challenges/[challenge_id]/files/[file_id]/route";
import * as filesRoute from "@/app/api/v1/ctfs/[ctf_id]/challenges/[challenge_id]/files/route";
import { challengeFiles, challenges, ctfs, storedFiles } from "@/db/schema";
import { createCtf } from "@/lib/ctf/competitions/competitions";
import { createCtfInput } from "@/lib/ctf/competitions/schemas";
import { flagAccepts } from "@/lib/ctf/challenges/flags/flags";
import { builtinHostWorld } from "../../helpers/builtin-host";
import { call } from "../../helpers/http";
import { ctfdExportForm } from "../../helpers/samples/ctfd-import";
import { ctfdExportZip, declareSize, fixtureFiles, fixtureTables } from "./ctfd-fixture";

const world = builtinHostWorld({ FILE_STORAGE: "database" });

vi.mock("@/lib/platform/auth/session", () => import("../../helpers/session"));

/**
 * Importing a CTFd export (POST /api/v1/ctfs/{ctf_id}/import/ctfd) with fixtures built in code
 * from CTFd's export layout (./ctfd-fixture.ts): what is carried over, what is reported, and
 * that a malformed or oversized archive imports nothing.
 */

async function newCtf() {
  return (await createCtf(world.database.db, world.trainer.workspaceId, createCtfInput.parse({ title: "From CTFd", starts_at: "2026-12-01T10:00:00Z", ends_at: "2026-12-02T10:00:00Z" }))).id;
}

const url = (ctfId: string) => `/api/v1/ctfs/${ctfId}/import/ctfd`;

/** The archive as the whole body (`application/zip`, or `contentType`), or as the multipart part `file` (`form`); `query` as sent. */
async function importZip(ctfId: string, zip: Uint8Array, options: { form?: boolean; dryRun?: boolean; key?: string; contentType?: string; query?: string } = {}) {
  if (options.form) return call(importRoute.POST, url(ctfId), { method: "POST", key: options.key ?? world.trainer.secret, params: { ctf_id: ctfId }, query: options.dryRun ? { dry_run: "true" } : {}, body: ctfdExportForm(zip) });
  const query = options.query ?? (options.dryRun ? "dry_run=true" : "");
  const request = new Request(`http://localhost${url(ctfId)}${query ? `?${query}` : ""}`, {
    method: "POST",
    headers: { "x-api-key": options.key ?? world.trainer.secret, "content-type": options.contentType ?? "application/zip" },
    body: zip as BodyInit,
  });
  const response = await importRoute.POST(request, { params: Promise.resolve({ ctf_id: ctfId }) });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

/** What an import may write: challenges, their files and the files' bytes (stored in the database here). */
async function written(ctfId: string) {
  const db = world.database.db;
  const [{ n: rows }] = await db.select({ n: count() }).from(challenges).where(eq(challenges.ctfId, ctfId));
  const [{ n: files }] = await db.select({ n: count() }).from(challengeFiles).where(eq(challengeFiles.workspaceId, world.trainer.workspaceId));
  const [{ n: bytes }] = await db.select({ n: count() }).from(storedFiles).where(like(storedFiles.key, `challenge-files/${world.trainer.workspaceId}/%`));
  return { challenges: rows, files, bytes };
}

function expectRefused(result: { status: number; body: any }, status: number, mentions: string) {
  expect(result.status, JSON.stringify(result.body)).toBe(status);
  expect(result.body.error.message).toContain(mentions);
  expect(result.body.error.request_id).toMatch(/^req_/);
}

describe("importing CTFd's export", () => {
  it("creates draft challenges with flags, hints, tags, files, prerequisites and dynamic values, and reports what it could not carry over", async () => {
    const ctfId = await newCtf();
    const result = await importZip(ctfId, ctfdExportZip(), { form: true });
    expect(result.status, JSON.stringify(result.body)).toBe(201);
    const report = result.body;
    expect(report.dry_run).toBe(false);
    expect(report.imported.map((entry: any) => [entry.ctfd_id, entry.title, entry.category, entry.files, entry.hints])).toEqual([
      [1, "Warm-up", "forensics", 2, 2],
      [2, "Falling value", "binary exploitation", 0, 1],
      [3, "Pattern", "offsec", 0, 0],
      [4, "Steady decline", "web", 0, 0],
    ]);
    expect(report.skipped).toEqual([{ ctfd_id: 5, title: "Survey", reason: expect.stringContaining("no flag") }]);
    const notes = report.notes.map((entry: any) => `${entry.ctfd_id}: ${entry.note}`);
    expect(notes).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^1: Flag 2 not carried over/),
        expect.stringMatching(/^1: Hint 2's unlock order/),
        expect.stringMatching(/^2: Its category "pwn" .* binary exploitation/),
        expect.stringMatching(/^3: Its category "Trivia" .* offsec/),
        expect.stringMatching(/^4: Its linear decay is not carried over/),
      ]),
    );
    expect(notes.some((note: string) => note.startsWith("1: Its category"))).toBe(false);

    const ids = Object.fromEntries(report.imported.map((entry: any) => [entry.ctfd_id, entry.challenge_id]));
    const rows = Object.fromEntries((await world.database.db.select().from(challenges).where(eq(challenges.ctfId, ctfId))).map((row) => [row.id, row]));
    expect(Object.keys(rows).sort()).toEqual(Object.values(ids).sort());
    for (const row of Object.values(rows)) expect(row.status).toBe("draft");

    const warmUp = rows[ids[1]];
    expect(warmUp).toMatchObject({ title: "Warm-up", points: 100, scoring: { type: "static" }, flagMode: "exact", maxAttempts: null, tags: ["beginner"], requires: [] });
    expect(warmUp.hints).toEqual([{ text: "Open **notes.txt**.", cost: 0 }, { text: "Then the capture.", cost: 25 }]);
    expect(flagAccepts(warmUp, "CTF{warm_up}")).toBe(true);
    expect(flagAccepts(warmUp, "CTF{also_accepted}")).toBe(false);

    const falling = rows[ids[2]];
    expect(falling).toMatchObject({ points: 500, scoring: { type: "dynamic", initial: 500, minimum: 100, decay: 10 }, flagMode: "case_insensitive", maxAttempts: 5, tags: ["heap", "glibc"], requires: [ids[1]] });
    expect(falling.description).toContain("nc chal.example 1337");
    expect(flagAccepts(falling, "ctf{FALLING}")).toBe(true);

    const pattern = rows[ids[3]];
    expect(pattern).toMatchObject({ flagMode: "regex", requires: [ids[1], ids[2]] });
    expect(flagAccepts(pattern, "CTF{0123abcd}")).toBe(true);
    expect(flagAccepts(pattern, "CTF{0123abcg}")).toBe(false);

    expect(rows[ids[4]]).toMatchObject({ points: 300, scoring: { type: "static" } });

    // The files come back through the API byte for byte.
    const params = { ctf_id: ctfId, challenge_id: ids[1] };
    const listed = await call(filesRoute.GET, `/api/v1/ctfs/${ctfId}/challenges/${ids[1]}/files`, { key: world.trainer.secret, params });
    expect(listed.body.data.map((file: any) => file.name)).toEqual(["capture.pcap", "notes.txt"]);
    for (const file of listed.body.data) {
      const response = await fileRoute.GET(new Request(`http://localhost/api/v1/ctfs/${ctfId}/challenges/${ids[1]}/files/${file.id}`, { headers: { "x-api-key": world.trainer.secret } }), {
        params: Promise.resolve({ ...params, file_id: file.id }),
      });
      expect(response.status).toBe(200);
      const location = Object.keys(fixtureFiles).find((key) => key.endsWith(`/${file.name}`))!;
      expect(new Uint8Array(await response.arrayBuffer())).toEqual(fixtureFiles[location]);
    }
  });

  it("takes the zip as the body (application/zip) as well, and a dry run writes nothing", async () => {
    const ctfId = await newCtf();
    const dry = await importZip(ctfId, ctfdExportZip(), { dryRun: true });
    expect(dry.status, JSON.stringify(dry.body)).toBe(201);
    expect(dry.body.dry_run).toBe(true);
    expect(dry.body.imported.map((entry: any) => entry.challenge_id)).toEqual([null, null, null, null]);
    expect(await written(ctfId)).toEqual({ challenges: 0, files: 0, bytes: 0 });

    const real = await importZip(ctfId, ctfdExportZip());
    expect(real.status, JSON.stringify(real.body)).toBe(201);
    expect(real.body.imported).toHaveLength(4);
    expect(await written(ctfId)).toEqual({ challenges: 4, files: 2, bytes: 2 });
  });

  it("reads the dynamic values newer CTFd keeps on the challenge itself, and brings values inside our bounds", async () => {
    const tables = fixtureTables();
    tables.dynamic_challenge = [];
    tables.challenges[1] = { ...tables.challenges[1], initial: 20_000, minimum: 50, decay: 0, function: "logarithmic" };
    const ctfId = await newCtf();
    const result = await importZip(ctfId, ctfdExportZip(tables));
    expect(result.status, JSON.stringify(result.body)).toBe(201);
    const [row] = await world.database.db.select().from(challenges).where(eq(challenges.id, result.body.imported[1].challenge_id));
    expect(row.scoring).toEqual({ type: "dynamic", initial: 10_000, minimum: 50, decay: 1 });
    expect(result.body.notes.map((entry: any) => entry.note)).toEqual(expect.arrayContaining([expect.stringContaining("brought within ours")]));
  });
});

it("notes a plugin's challenge type, a regex RE2 cannot check, a file name our rules refuse and a prerequisite that is not imported", async () => {
  const tables = fixtureTables();
  tables.challenges = [
    { id: 7, name: "Choose", description: "", value: 50, category: "web", type: "multiple_choice", state: "visible", requirements: { prerequisites: [5] } },
    { id: 5, name: "Survey", description: "", value: 10, category: "misc", type: "standard", state: "visible", requirements: null },
  ];
  tables.dynamic_challenge = [];
  tables.flags = [
    { id: 1, challenge_id: 7, type: "regex", content: "CTF\\{(?=a)a\\}", data: "" },
    { id: 2, challenge_id: 7, type: "static", content: "  CTF{b}  ", data: "" },
    { id: 3, challenge_id: 7, type: "plugin_flag", content: "x", data: null },
  ];
  tables.hints = [];
  tables.tags = [];
  tables.files = [{ id: 1, type: "challenge", location: "0123/..", challenge_id: 7 }];
  const ctfId = await newCtf();
  const result = await importZip(ctfId, ctfdExportZip(tables, { "0123/..": new Uint8Array([1]) }));
  expect(result.status, JSON.stringify(result.body)).toBe(201);
  expect(result.body.imported).toEqual([{ challenge_id: expect.stringMatching(/^chl_/), title: "Choose", ctfd_id: 7, category: "web", files: 0, hints: 0 }]);
  expect(result.body.skipped.map((entry: any) => entry.ctfd_id)).toEqual([5]);
  const notes = result.body.notes.filter((entry: any) => entry.ctfd_id === 7).map((entry: any) => entry.note);
  expect(notes).toEqual([
    expect.stringMatching(/^Regex flag 1 cannot be checked here/),
    expect.stringMatching(/^Flag 3 is of CTFd type "plugin_flag"/),
    expect.stringMatching(/^Its CTFd type "multiple_choice" is not known here: imported as a static challenge worth 50/),
    expect.stringMatching(/^File 0123\/\.\. not carried over/),
    expect.stringMatching(/^A requirement is not carried over: its prerequisite, CTFd challenge 5, is not imported/),
  ]);
  const [row] = await world.database.db.select().from(challenges).where(eq(challenges.ctfId, ctfId));
  expect(row).toMatchObject({ flagMode: "exact", requires: [], points: 50 });
  expect(flagAccepts(row, "CTF{b}")).toBe(true);
  expect(await written(ctfId)).toEqual({ challenges: 1, files: 0, bytes: 0 });
});

describe("a malformed archive imports nothing and names the entry", () => {
  const withTables = (change: (tables: ReturnType<typeof fixtureTables>) => void) => {
    const tables = fixtureTables();
    change(tables);
    return ctfdExportZip(tables);
  };
  const cases: [string, () => Uint8Array, string][] = [
    ["not a zip", () => strToU8("this is not an archive"), "not a zip archive"],
    ["no db/challenges.json", () => zipSync({ "db/flags.json": strToU8('{"results": []}') }), "db/challenges.json is missing"],
    ["a table that is not JSON", () => ctfdExportZip(fixtureTables(), fixtureFiles, { "db/hints.json": strToU8("{not json") }), "db/hints.json is not valid"],
    ["a table without results", () => ctfdExportZip(fixtureTables(), fixtureFiles, { "db/tags.json": strToU8('{"count": 0}') }), 'db/tags.json has no "results"'],
    ["a flag naming an unknown challenge", () => withTables((t) => t.flags.push({ id: 9, challenge_id: 99, type: "static", content: "x", data: "" })), "db/flags.json, id 9: challenge 99"],
    ["a row of the wrong shape", () => withTables((t) => (t.challenges[0].name = 42 as unknown as string)), "db/challenges.json, row 1 (id 1): name"],
    ["a file missing from uploads/", () => ctfdExportZip(fixtureTables(), { [Object.keys(fixtureFiles)[0]]: fixtureFiles[Object.keys(fixtureFiles)[0]] }), "uploads/9b8a7c6d5e4f3a2b1c0d9e8f7a6b5c4d/notes.txt is missing"],
    ["a challenge id twice", () => withTables((t) => t.challenges.push({ ...t.challenges[0] })), "challenge id 1 appears twice"],
    ["a table of more rows than an import reads", () => withTables((t) => (t.tags = Array.from({ length: 20_001 }, (_, i) => ({ id: i + 1, challenge_id: 1, value: "t" })))), "db/tags.json holds 20001 rows, more than the 20000"],
  ];
  it.each(cases)("%s → 422", async (_, zip, mentions) => {
    const ctfId = await newCtf();
    const result = await importZip(ctfId, zip());
    expectRefused(result, 422, mentions);
    expect(result.body.error.fields[0].field).toBe("file");
    // The field's message names the entry as the zip spells it ("db/…", never "Db/…").
    expect(result.body.error.fields[0].message).toContain(mentions);
    expect(await written(ctfId)).toEqual({ challenges: 0, files: 0, bytes: 0 });
  });

  it("an empty body → 422; a multipart body without the file part → 422", async () => {
    const ctfId = await newCtf();
    expectRefused(await importZip(ctfId, new Uint8Array(0)), 422, "");
    const form = new FormData();
    form.append("other", "x");
    const result = await call(importRoute.POST, url(ctfId), { method: "POST", key: world.trainer.secret, params: { ctf_id: ctfId }, body: form });
    expect(result.status).toBe(422);
    expect(result.body.error.fields[0].field).toBe("file");
  });

  it("an archived competition → 409", async () => {
    // Set directly: archiving computes the final standings, which are not this file's subject.
    const ctfId = await newCtf();
    await world.database.db.update(ctfs).set({ status: "archived" }).where(eq(ctfs.id, ctfId));
    expectRefused(await importZip(ctfId, ctfdExportZip()), 409, "archived");
  });
});

describe("a zip bomb is bounded", () => {
  it("an entry declaring more than its limit → 413 before it is inflated", async () => {
    const ctfId = await newCtf();
    const result = await importZip(ctfId, declareSize(ctfdExportZip(), "db/challenges.json", 4_000_000_000));
    expectRefused(result, 413, "db/challenges.json");
    const file = await importZip(ctfId, declareSize(ctfdExportZip(), `uploads/${Object.keys(fixtureFiles)[0]}`, 2_000_000_000));
    expectRefused(file, 413, "capture.pcap");
    expect(await written(ctfId)).toEqual({ challenges: 0, files: 0, bytes: 0 });
  });

  it("an entry inflating far beyond what it declares is a malformed archive (422 naming it), found out quickly", async () => {
    const ctfId = await newCtf();
    const bomb = zipSync({ "db/challenges.json": new Uint8Array(32 * 1024 * 1024).fill(0x20) }, { level: 9 });
    expect(bomb.byteLength).toBeLessThan(1024 * 1024);
    const started = performance.now();
    const result = await importZip(ctfId, declareSize(bomb, "db/challenges.json", 100));
    expectRefused(result, 422, "db/challenges.json");
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it("too many entries → 422; an archive over 50 MiB → 413", async () => {
    const ctfId = await newCtf();
    const many = Object.fromEntries(Array.from({ length: 10_001 }, (_, i) => [`x/${i}`, new Uint8Array(0)]));
    expectRefused(await importZip(ctfId, ctfdExportZip(fixtureTables(), fixtureFiles, many)), 422, "more than 10000 entries");
    expectRefused(await importZip(ctfId, new Uint8Array(50 * 1024 * 1024 + 1)), 413, "");
    expect(await written(ctfId)).toEqual({ challenges: 0, files: 0, bytes: 0 });
  });
});

it("twenty imports at once into one competition all succeed, each whole", async () => {
  const ctfId = await newCtf();
  const results = await Promise.all(Array.from({ length: 20 }, (_, i) => importZip(ctfId, ctfdExportZip(), { form: i % 2 === 0 })));
  for (const result of results) expect(result.status, JSON.stringify(result.body)).toBe(201);
  expect(await written(ctfId)).toEqual({ challenges: 80, files: 40, bytes: 40 });
});

describe("prerequisites that would close a circle are dropped and noted, as the API refuses them", () => {
  it("two challenges requiring each other: the first requirement is kept, the one closing the circle noted; a self-requirement is noted", async () => {
    const tables = fixtureTables();
    tables.challenges[0].requirements = { prerequisites: [2] }; // and 2 requires 1 (the fixture)
    tables.challenges[3].requirements = { prerequisites: [4] };
    const ctfId = await newCtf();
    const dry = await importZip(ctfId, ctfdExportZip(tables), { dryRun: true });
    const result = await importZip(ctfId, ctfdExportZip(tables));
    expect(result.status, JSON.stringify(result.body)).toBe(201);
    expect(dry.body.notes).toEqual(result.body.notes);
    const notes = result.body.notes.map((entry: any) => `${entry.ctfd_id}: ${entry.note}`);
    expect(notes).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^2: A requirement is not carried over: CTFd challenge 1 already requires this one \(1 requires 2\)/),
        expect.stringMatching(/^4: A requirement is not carried over: it requires itself/),
      ]),
    );
    const ids = Object.fromEntries(result.body.imported.map((entry: any) => [entry.ctfd_id, entry.challenge_id]));
    const rows = Object.fromEntries((await world.database.db.select().from(challenges).where(eq(challenges.ctfId, ctfId))).map((row) => [row.id, row.requires]));
    expect(rows[ids[1]]).toEqual([ids[2]]);
    expect(rows[ids[2]]).toEqual([]);
    expect(rows[ids[3]]).toEqual([ids[1], ids[2]]);
    expect(rows[ids[4]]).toEqual([]);
  });

  it("a longer circle (1 → 3 → 2 → 1) loses only the requirement that would close it", async () => {
    const tables = fixtureTables();
    tables.challenges[0].requirements = { prerequisites: [3] };
    tables.challenges[2].requirements = { prerequisites: [2] }; // 2 requires 1 (the fixture)
    const ctfId = await newCtf();
    const result = await importZip(ctfId, ctfdExportZip(tables));
    expect(result.status, JSON.stringify(result.body)).toBe(201);
    const ids = Object.fromEntries(result.body.imported.map((entry: any) => [entry.ctfd_id, entry.challenge_id]));
    const rows = Object.fromEntries((await world.database.db.select().from(challenges).where(eq(challenges.ctfId, ctfId))).map((row) => [row.id, row.requires]));
    expect([rows[ids[1]], rows[ids[2]], rows[ids[3]]]).toEqual([[ids[3]], [ids[1]], []]);
    expect(result.body.notes.map((entry: any) => `${entry.ctfd_id}: ${entry.note}`)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^3: A requirement is not carried over: CTFd challenge 2 already requires this one \(2 requires 1 requires 3\)/)]),
    );
  });
});

describe("text that cannot be stored, and values changed on the way, are noted; the dry run answers as the import does", () => {
  it("NUL characters are removed, an unpaired surrogate replaced, a flag with either not carried over, each noted", async () => {
    const tables = fixtureTables();
    tables.challenges[0].name = "Warm\u0000-up";
    tables.challenges[0].description = "Find\u0000 it.";
    tables.hints[0].content = "Open\u0000 it.";
    tables.tags[0].value = "begin\u0000ner";
    tables.challenges[1].name = "Falling \ud800value";
    tables.flags[4].content = "CTF{lin\u0000ear}";
    const ctfId = await newCtf();
    const dry = await importZip(ctfId, ctfdExportZip(tables), { dryRun: true });
    const result = await importZip(ctfId, ctfdExportZip(tables));
    expect(result.status, JSON.stringify(result.body)).toBe(201);
    expect(dry.status).toBe(201);
    for (const part of ["notes", "skipped"] as const) expect(dry.body[part]).toEqual(result.body[part]);
    expect(dry.body.imported.map((entry: any) => entry.title)).toEqual(result.body.imported.map((entry: any) => entry.title));
    expect(result.body.imported.map((entry: any) => entry.title)).toEqual(["Warm-up", "Falling \ufffdvalue", "Pattern"]);
    expect(result.body.skipped.map((entry: any) => entry.ctfd_id)).toEqual([4, 5]);
    const notes = result.body.notes.map((entry: any) => `${entry.ctfd_id}: ${entry.note}`);
    expect(notes).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^1: Its name contained NUL characters/),
        expect.stringMatching(/^1: Its description contained NUL characters/),
        expect.stringMatching(/^1: Hint 1 contained NUL characters/),
        expect.stringMatching(/^1: Tag 1 contained NUL characters/),
        expect.stringMatching(/^2: Its name contained an unpaired UTF-16 surrogate/),
        expect.stringMatching(/^4: Flag 5 contains a NUL character or an unpaired surrogate/),
      ]),
    );
    const [warmUp] = await world.database.db.select().from(challenges).where(eq(challenges.id, result.body.imported[0].challenge_id));
    expect(warmUp).toMatchObject({ title: "Warm-up", description: "Find it.", tags: ["beginner"] });
    expect(warmUp.hints[0].text).toBe("Open it.");
  });

  it("a name cut at 200 characters is noted and never splits a character in two", async () => {
    const tables = fixtureTables();
    tables.challenges[0].name = `${"x".repeat(199)}\u{1F600}tail`;
    const ctfId = await newCtf();
    const result = await importZip(ctfId, ctfdExportZip(tables));
    expect(result.status, JSON.stringify(result.body)).toBe(201);
    expect(result.body.imported[0].title).toBe("x".repeat(199));
    expect(result.body.notes.map((entry: any) => `${entry.ctfd_id}: ${entry.note}`)).toEqual(expect.arrayContaining([expect.stringMatching(/^1: Its name is longer than 200 characters: cut there/)]));
  });

  it("notes a negative attempt cap, an empty tag and a dynamic challenge the export gives no dynamic values (imported static)", async () => {
    const tables = fixtureTables();
    tables.challenges[0].max_attempts = -1;
    tables.tags.push({ id: 4, challenge_id: 1, value: "   " });
    tables.dynamic_challenge = tables.dynamic_challenge.filter((row) => row.id !== 2);
    const ctfId = await newCtf();
    const result = await importZip(ctfId, ctfdExportZip(tables));
    expect(result.status, JSON.stringify(result.body)).toBe(201);
    const notes = result.body.notes.map((entry: any) => `${entry.ctfd_id}: ${entry.note}`);
    expect(notes).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^1: Its max_attempts -1 is not a number of tries: imported without a cap/),
        expect.stringMatching(/^1: Tag 4 is empty: not carried over/),
        expect.stringMatching(/^2: It is dynamic on CTFd, but the export holds none of its dynamic values.*static challenge worth 500/),
      ]),
    );
    const ids = Object.fromEntries(result.body.imported.map((entry: any) => [entry.ctfd_id, entry.challenge_id]));
    const rows = Object.fromEntries((await world.database.db.select().from(challenges).where(eq(challenges.ctfId, ctfId))).map((row) => [row.id, row]));
    expect(rows[ids[1]]).toMatchObject({ maxAttempts: null, tags: ["beginner"] });
    expect(rows[ids[2]]).toMatchObject({ points: 500, scoring: { type: "static" } });
  });

  it("an entry whose bytes disagree with the size it declares is a malformed archive → 422 naming it, stored or deflated", async () => {
    const ctfId = await newCtf();
    const location = `uploads/${Object.keys(fixtureFiles)[1]}`;
    expect(fixtureFiles[Object.keys(fixtureFiles)[1]].byteLength).toBe(26);
    for (const declared of [3, 40]) {
      const result = await importZip(ctfId, declareSize(ctfdExportZip(), location, declared), { dryRun: true });
      expectRefused(result, 422, location);
      expect(result.body.error.fields[0]).toMatchObject({ field: "file", message: expect.stringContaining(location) });
    }
    const stored = ctfdExportZip(fixtureTables(), fixtureFiles, {}, { level: 0 });
    expect((await importZip(ctfId, stored, { dryRun: true })).status).toBe(201);
    expectRefused(await importZip(ctfId, declareSize(stored, "db/challenges.json", 10), { dryRun: true }), 422, "db/challenges.json");
    expectRefused(await importZip(ctfId, declareSize(stored, location, 3)), 422, location);
    expect(await written(ctfId)).toEqual({ challenges: 0, files: 0, bytes: 0 });
  });
});

describe("the request's shape", () => {
  it("a multipart type without a boundary, or another multipart type, → 422 (body); other types are read as the archive", async () => {
    const ctfId = await newCtf();
    for (const contentType of ["multipart/form-data", "Multipart/Form-Data ; charset=utf-8", "multipart/mixed; boundary=xyz"]) {
      const result = await importZip(ctfId, ctfdExportZip(), { contentType });
      expect(result.status, `${contentType}: ${JSON.stringify(result.body)}`).toBe(422);
      expect(result.body.error.fields[0].field).toBe("(body)");
    }
    expect(await written(ctfId)).toEqual({ challenges: 0, files: 0, bytes: 0 });
    expect((await importZip(ctfId, ctfdExportZip(), { contentType: "application/octet-stream", dryRun: true })).status).toBe(201);
  });

  it("dry_run is true or false, as the docs and the OpenAPI document say; anything else → 422", async () => {
    const ctfId = await newCtf();
    expect((await importZip(ctfId, ctfdExportZip(), { query: "dry_run=false" })).body.dry_run).toBe(false);
    expect((await importZip(ctfId, ctfdExportZip(), { query: "dry_run=true" })).body.dry_run).toBe(true);
    for (const value of ["1", "yes", "TRUE", ""]) {
      const result = await importZip(ctfId, ctfdExportZip(), { query: `dry_run=${value}` });
      expect(result.status, value).toBe(422);
      expect(result.body.error.fields[0].field).toBe("dry_run");
    }
    const doc = await openapiRoute.GET().json();
    const parameter = doc.paths["/api/v1/ctfs/{ctf_id}/import/ctfd"].post.parameters.find((entry: any) => entry.name === "dry_run");
    expect(parameter.schema).toMatchObject({ type: "string", enum: ["true", "false"], default: "false" });
    expect(parameter.required).toBeFalsy();
  });
});

describe("inflating never holds up the server", () => {
  /** An export whose one challenge carries `count` uploads of 10 MiB of zeros (a zip of a few kB each). */
  function zerosExport(count: number): Uint8Array {
    const tables = fixtureTables();
    const uploads: Record<string, Uint8Array> = {};
    const zeros = new Uint8Array(10 * 1024 * 1024 - 1);
    tables.files = Array.from({ length: count }, (_, i) => ({ id: i + 1, type: "challenge", location: `d${i}/f${i}.bin`, sha1sum: null, challenge_id: 1, page_id: null }));
    for (let i = 0; i < count; i++) uploads[`d${i}/f${i}.bin`] = zeros;
    return ctfdExportZip(tables, uploads);
  }

  it("the event loop keeps turning while bomb-like archives are read (no pause of 500 ms); over 64 MiB inflated → 413 before inflating", async () => {
    const accepted = zerosExport(6); // 60 MiB inflated: within the bound
    const refused = zerosExport(19); // 190 MiB inflated, from a zip of about 200 kB
    expect(refused.byteLength).toBeLessThan(300_000);
    const ctfId = await newCtf();
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const results = await Promise.all([importZip(ctfId, accepted, { dryRun: true }), importZip(ctfId, refused, { dryRun: true }), importZip(ctfId, accepted, { dryRun: true })]);
    delay.disable();
    expect(results.map((result) => result.status)).toEqual([201, 413, 201]);
    expect(results[0].body.imported[0].files).toBe(6);
    expect(results[1].body.error.message).toContain(`more than 64 MB (${64 * 1024 * 1024} bytes) in all`);
    expect(delay.max / 1e6).toBeLessThan(500);
  });

  it("at most two archives are inflated at once; another waits its turn, and after a while → 503 with Retry-After", async () => {
    const { inflating } = await import("@/lib/ctf/challenges/import-ctfd/gate");
    const ctfId = await newCtf();
    const releases = [await inflating.acquire(), await inflating.acquire()];
    const waitMs = inflating.waitMs;
    try {
      inflating.waitMs = 50;
      const busy = await importZip(ctfId, ctfdExportZip(), { dryRun: true });
      expect(busy.status, JSON.stringify(busy.body)).toBe(503);
      expect(busy.headers.get("retry-after")).toBe("5");
      inflating.waitMs = 10_000;
      const queued = importZip(ctfId, ctfdExportZip(), { dryRun: true });
      releases[0]();
      expect((await queued).status).toBe(201);
    } finally {
      inflating.waitMs = waitMs;
      for (const release of releases) release();
    }
  });
});
