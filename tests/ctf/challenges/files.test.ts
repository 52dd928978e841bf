import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, count, eq, like } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import * as playerFileRoute from "@/app/api/c/[ctf_id]/challenges/[challenge_id]/files/[file_id]/route";
import * as fileRoute from "@/app/api/v1/ctfs/[ctf_id]/challenges/[challenge_id]/files/[file_id]/route";
import * as filesRoute from "@/app/api/v1/ctfs/[ctf_id]/challenges/[challenge_id]/files/route";
import { challengeFiles, challenges, ctfs, storedFiles } from "@/db/schema";
import { contentDisposition, safeContentType } from "@/lib/platform/http/download";
import { completePublish, deleteChallenge, publishChallenge, unpublishChallenge, completeUnpublish } from "@/lib/ctf/challenges/challenges";
import { deleteCtf, stopCtf } from "@/lib/ctf/competitions/competitions";
import { fileNameProblem } from "@/lib/ctf/challenges/files/rules";
import { playerFiles } from "@/lib/ctf/challenges/files/files";
import type { ConfigError } from "@/lib/kernel/config/config";
import { fileStorage } from "@/lib/platform/storage";
import { objectUrl } from "@/lib/platform/storage/s3";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { startFakeS3, type FakeS3 } from "../../helpers/fake-s3";
import { createTrainer, type Trainer } from "../../helpers/fixtures";
import { call } from "../../helpers/http";
import { draftChallenge, fileForm, playableFile, sampleFileBytes, storedFile } from "../../helpers/samples/files";
import { playerOf, runningCtf } from "../../helpers/samples/play";
import { captureLogs } from "../../helpers/logs";
import { signInAs } from "../../helpers/session";
import { expectStatus } from "../../helpers/competition";
import { archiveCtf } from "@/lib/ctf/play/archive";

// The dashboard's calls read the session: the trainer signed in with signInAs.
vi.mock("@/lib/platform/auth/session", () => import("../../helpers/session"));

/**
 * Challenge files through their routes: the organiser uploads (multipart/form-data), lists,
 * downloads and deletes them; a joined player downloads them while the competition runs.
 * The storage kinds (filesystem, database, S3 against a local fake that checks SigV4) are
 * each exercised end to end.
 */

let database: TestDatabase;
let trainer: Trainer;
let s3: FakeS3;
const origin = { origin: "http://localhost", "x-forwarded-host": "localhost" };
const HOUR = 3_600_000;
const storageDir = fs.mkdtempSync(path.join(os.tmpdir(), "certify-files-test-"));

beforeAll(async () => {
  vi.stubEnv("CTFD_URL", "");
  vi.stubEnv("CTFD_TOKEN", "");
  database = await createTestDatabase();
  s3 = await startFakeS3();
});
beforeEach(async () => {
  storeFilesIn("filesystem");
  trainer = await createTrainer(database.db);
});
afterEach(() => {
  vi.stubEnv("FILE_MAX_BYTES", "");
});
afterAll(async () => {
  await database?.drop();
  await s3?.close();
  vi.unstubAllEnvs();
  fs.rmSync(storageDir, { recursive: true, force: true });
});

type Kind = "filesystem" | "database" | "s3";

function storeFilesIn(kind: Kind) {
  vi.stubEnv("FILE_STORAGE", kind);
  vi.stubEnv("FILE_STORAGE_DIR", storageDir);
  vi.stubEnv("S3_ENDPOINT", s3?.endpoint ?? "");
  vi.stubEnv("S3_BUCKET", s3?.bucket ?? "");
  vi.stubEnv("S3_REGION", s3?.region ?? "");
  vi.stubEnv("S3_ACCESS_KEY_ID", s3?.accessKeyId ?? "");
  vi.stubEnv("S3_SECRET_ACCESS_KEY", s3?.secretAccessKey ?? "");
  vi.stubEnv("S3_FORCE_PATH_STYLE", "true");
}

/** The storage keys of a workspace's files that are in the store now, whatever the store. */
async function storedKeys(kind: Kind, workspaceId: string): Promise<string[]> {
  const prefix = `challenge-files/${workspaceId}/`;
  if (kind === "s3") return [...s3.objects.keys()].filter((key) => key.startsWith(prefix)).sort();
  if (kind === "database") return (await database.db.select({ key: storedFiles.key }).from(storedFiles).where(like(storedFiles.key, `${prefix}%`))).map((row) => row.key).sort();
  const dir = path.join(storageDir, "challenge-files", workspaceId);
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => !name.endsWith(".part")).map((name) => prefix + name).sort() : [];
}

const filesUrl = (p: { ctf_id: string; challenge_id: string }) => `/api/v1/ctfs/${p.ctf_id}/challenges/${p.challenge_id}/files`;

function upload(p: { ctf_id: string; challenge_id: string }, body: unknown, key = trainer.secret) {
  return call(filesRoute.POST, filesUrl(p), { method: "POST", key, params: p, body });
}
const list = (p: { ctf_id: string; challenge_id: string }, key = trainer.secret) => call(filesRoute.GET, filesUrl(p), { key, params: p });

/** A raw download: the bytes as they came, and the headers. */
async function fetchBytes(handler: typeof fileRoute.GET, url: string, params: Record<string, string>, headers: Record<string, string>) {
  const response = await handler(new Request(`http://localhost${url}`, { headers }), { params: Promise.resolve(params) });
  const bytes = Buffer.from(await response.arrayBuffer());
  const json = (response.headers.get("content-type") ?? "").includes("json") ? JSON.parse(bytes.toString("utf8")) : undefined;
  return { status: response.status, headers: response.headers, bytes, json };
}
const organiserDownload = (p: { ctf_id: string; challenge_id: string; file_id: string }, key = trainer.secret) =>
  fetchBytes(fileRoute.GET, `${filesUrl(p)}/${p.file_id}`, p, { "x-api-key": key });
const playerDownload = (p: { ctf_id: string; challenge_id: string; file_id: string }, cookie?: string) =>
  fetchBytes(playerFileRoute.GET, `/api/c/${p.ctf_id}/challenges/${p.challenge_id}/files/${p.file_id}`, p, cookie ? { cookie } : {});
const remove = (p: { ctf_id: string; challenge_id: string; file_id: string }, key = trainer.secret) =>
  call(fileRoute.DELETE, `${filesUrl(p)}/${p.file_id}`, { method: "DELETE", key, params: p });

function expectError(result: { status: number; body?: any; json?: any }, status: number, code: string) {
  const body = result.body ?? result.json;
  expect(result.status, JSON.stringify(body)).toBe(status);
  expect(body.error.code).toBe(code);
  expect(body.error.request_id).toMatch(/^req_/);
  return body.error as { message: string; fields?: { field: string; message: string }[] };
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

describe.each<Kind>(["filesystem", "database", "s3"])("on the %s storage", (kind) => {
  beforeEach(() => storeFilesIn(kind));

  it("uploads, lists, downloads (organiser and player) and deletes a file; the bytes leave the store", async () => {
    const bytes = new Uint8Array(Array.from({ length: 3000 }, (_, i) => (i * 7) % 256));
    const p = await draftChallenge(database.db, trainer);
    const created = expectStatus(await upload(p, fileForm("capture.pcap", bytes, "application/vnd.tcpdump.pcap")), 201);
    expect(created).toEqual({
      id: expect.stringMatching(/^fil_[0-9A-Z]{26}$/),
      challenge_id: p.challenge_id,
      name: "capture.pcap",
      size: 3000,
      content_type: "application/vnd.tcpdump.pcap",
      sha256: sha256(bytes),
      created_at: expect.stringMatching(/Z$/),
    });
    expect(await storedKeys(kind, trainer.workspaceId)).toEqual([`challenge-files/${trainer.workspaceId}/${created.id}`]);
    expect(expectStatus(await list(p), 200)).toEqual({ data: [created], pagination: { page: 1, per_page: 25, total: 1 } });

    const mine = await organiserDownload({ ...p, file_id: created.id });
    expect(mine.status).toBe(200);
    expect(mine.bytes.equals(Buffer.from(bytes))).toBe(true);
    expect(mine.headers.get("content-type")).toBe("application/vnd.tcpdump.pcap");
    expect(mine.headers.get("content-length")).toBe("3000");
    expect(mine.headers.get("content-disposition")).toBe(`attachment; filename="capture.pcap"; filename*=UTF-8''capture.pcap`);

    // Played: the competition runs, the challenge is published, a player downloads it.
    const ctfId = await runningCtf(database.db, trainer);
    const live = await draftChallenge(database.db, trainer, ctfId);
    const fileId = expectStatus(await upload(live, fileForm("capture.pcap", bytes)), 201).id;
    await publishChallenge(database.db, trainer.workspaceId, ctfId, live.challenge_id);
    await completePublish(database.db, live.challenge_id);
    const player = await playerOf(database.db, trainer, ctfId);
    const theirs = await playerDownload({ ...live, file_id: fileId }, player.cookie);
    expect(theirs.status).toBe(200);
    expect(theirs.bytes.equals(Buffer.from(bytes))).toBe(true);
    expect(theirs.headers.get("repr-digest")).toBe(`sha-256=:${createHash("sha256").update(bytes).digest("base64")}:`);

    expect(expectStatus(await remove({ ...p, file_id: created.id }), 200)).toEqual({ deleted: true, id: created.id });
    expect(expectStatus(await list(p), 200).data).toEqual([]);
    expect(await storedKeys(kind, trainer.workspaceId)).toEqual([`challenge-files/${trainer.workspaceId}/${fileId}`]);
    expectError(await organiserDownload({ ...p, file_id: created.id }), 404, "not_found");
    expectError(await remove({ ...p, file_id: created.id }), 404, "not_found");
  });

  it("twenty-five uploads at once to one challenge: twenty stored, five 409 (the limit), none 500, nothing left behind", async () => {
    const p = await draftChallenge(database.db, trainer);
    const results = await Promise.all(Array.from({ length: 25 }, (_, i) => upload(p, fileForm(`part-${i}.bin`, new Uint8Array([i, i, i])))));
    const statuses = results.map((result) => result.status).sort();
    expect(statuses.filter((status) => status === 201)).toHaveLength(20);
    expect(statuses.filter((status) => status === 409)).toHaveLength(5);
    for (const refused of results.filter((result) => result.status === 409)) expect(refused.body.error.message).toMatch(/at most 20 files/);
    const listed = expectStatus(await call(filesRoute.GET, filesUrl(p), { key: trainer.secret, params: p, query: { per_page: 100 } }), 200);
    expect(listed.pagination.total).toBe(20);
    const ids = listed.data.map((file: { id: string }) => `challenge-files/${trainer.workspaceId}/${file.id}`).sort();
    expect(await storedKeys(kind, trainer.workspaceId)).toEqual(ids);
  });

  it("deleting the challenge or the competition removes the stored bytes too", async () => {
    const one = await draftChallenge(database.db, trainer);
    await storedFile(database.db, trainer, one, "a.bin");
    const two = await draftChallenge(database.db, trainer);
    await storedFile(database.db, trainer, two, "b.bin");
    await storedFile(database.db, trainer, two, "c.bin");
    expect(await storedKeys(kind, trainer.workspaceId)).toHaveLength(3);
    await deleteChallenge(database.db, trainer.workspaceId, one.ctf_id, one.challenge_id);
    expect(await storedKeys(kind, trainer.workspaceId)).toHaveLength(2);
    await deleteCtf(database.db, trainer.workspaceId, two.ctf_id);
    expect(await storedKeys(kind, trainer.workspaceId)).toEqual([]);
    const [{ n }] = await database.db.select({ n: count() }).from(challengeFiles).where(eq(challengeFiles.workspaceId, trainer.workspaceId));
    expect(n).toBe(0);
  });
});

describe("the size limit", () => {
  it("answers 413 past FILE_MAX_BYTES and stores nothing; exactly the limit is accepted", async () => {
    vi.stubEnv("FILE_MAX_BYTES", "1024");
    const p = await draftChallenge(database.db, trainer);
    const over = expectError(await upload(p, fileForm("big.bin", new Uint8Array(1025))), 413, "payload_too_large");
    expect(over.message).toBe("The file is larger than the limit of 1 KB (1024 bytes).");
    expect(await storedKeys("filesystem", trainer.workspaceId)).toEqual([]);
    expect(expectStatus(await upload(p, fileForm("exact.bin", new Uint8Array(1024))), 201).size).toBe(1024);
  });

  it("refuses an announced Content-Length over the limit before reading the body, and a chunked body as soon as it passes it", async () => {
    vi.stubEnv("FILE_MAX_BYTES", "1024");
    const p = await draftChallenge(database.db, trainer);
    let pulled = 0;
    const endless = () =>
      new ReadableStream<Uint8Array>({
        pull(controller) {
          pulled += 1;
          controller.enqueue(new Uint8Array(4096));
          if (pulled > 10_000) controller.close();
        },
      });
    const announced = await filesRoute.POST(
      new Request(`http://localhost${filesUrl(p)}`, {
        method: "POST",
        headers: { "x-api-key": trainer.secret, "content-type": "multipart/form-data; boundary=x", "content-length": "50000000" },
        body: endless(),
        duplex: "half",
      } as RequestInit),
      { params: Promise.resolve(p) },
    );
    expect(announced.status).toBe(413);
    expect(pulled).toBeLessThanOrEqual(1);
    const chunked = await filesRoute.POST(
      new Request(`http://localhost${filesUrl(p)}`, {
        method: "POST",
        headers: { "x-api-key": trainer.secret, "content-type": "multipart/form-data; boundary=x" },
        body: endless(),
        duplex: "half",
      } as RequestInit),
      { params: Promise.resolve(p) },
    );
    expect(chunked.status).toBe(413);
    // It stopped within the limit and its envelope allowance (64 KiB), not at the end of the stream.
    expect(pulled).toBeLessThan(40);
  });

  it("accepts a file above the app-wide 1 MB JSON body limit when the configured limit allows it", async () => {
    const p = await draftChallenge(database.db, trainer);
    const bytes = new Uint8Array(3 * 1024 * 1024).fill(0x41);
    const created = expectStatus(await upload(p, fileForm("three-mb.bin", bytes)), 201);
    expect(created.size).toBe(bytes.length);
    expect(created.sha256).toBe(sha256(bytes));
  });
});

describe("names and bodies", () => {
  const badNames: [string, RegExp][] = [
    ["../../etc/passwd", /not a path/],
    ["dir/file.txt", /not a path/],
    ["dir\\file.txt", /not a path/],
    ["nul\u0000byte.txt", /control characters/],
    ["line\nbreak.txt", /control characters/],
    ["invoice\u202Etxt.exe", /control characters/],
    ["x".repeat(201), /longer than 200/],
    ["..", /only dots/],
    ["   ", /no name/],
    [" padded.txt", /start or end with spaces/],
  ];

  it.each(badNames)("refuses the name %j with 422 on file, storing nothing", async (name, message) => {
    const p = await draftChallenge(database.db, trainer);
    const error = expectError(await upload(p, fileForm(name)), 422, "validation_failed");
    expect(error.fields).toEqual([{ field: "file", message: expect.stringMatching(message) }]);
    expect(await storedKeys("filesystem", trainer.workspaceId)).toEqual([]);
  });

  it("keeps a Unicode name, and sends it in filename* with an ASCII stand-in", async () => {
    const p = await draftChallenge(database.db, trainer);
    const created = expectStatus(await upload(p, fileForm('résumé "final".txt', sampleFileBytes, "text/plain")), 201);
    expect(created.name).toBe('résumé "final".txt');
    const download = await organiserDownload({ ...p, file_id: created.id });
    expect(download.headers.get("content-disposition")).toBe(`attachment; filename="r_sum_ _final_.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%22final%22.txt`);
    expect(fileNameProblem(created.name)).toBeNull();
  });

  it("refuses what is not one file in a multipart part named file (422)", async () => {
    const p = await draftChallenge(database.db, trainer);
    expect(expectError(await upload(p, { file: "hello" }), 422, "validation_failed").fields?.[0].field).toBe("file");
    const wrongPart = new FormData();
    wrongPart.append("upload", new File([sampleFileBytes], "a.bin"));
    expect(expectError(await upload(p, wrongPart), 422, "validation_failed").fields?.[0].message).toMatch(/part named file/);
    const text = new FormData();
    text.append("file", "just text");
    expect(expectError(await upload(p, text), 422, "validation_failed").fields?.[0].message).toMatch(/must be a file/);
    const two = fileForm("a.bin");
    two.append("file", new File([sampleFileBytes], "b.bin"));
    expect(expectError(await upload(p, two), 422, "validation_failed").fields?.[0].message).toMatch(/one file per request/);
    const garbage = await filesRoute.POST(
      new Request(`http://localhost${filesUrl(p)}`, { method: "POST", headers: { "x-api-key": trainer.secret, "content-type": "multipart/form-data; boundary=x" }, body: "--x\r\nnot really multipart" }),
      { params: Promise.resolve(p) },
    );
    expect(expectError({ status: garbage.status, json: await garbage.json() }, 422, "validation_failed").fields?.[0].field).toBe("(body)");
    const [{ n }] = await database.db.select({ n: count() }).from(challengeFiles).where(eq(challengeFiles.challengeId, p.challenge_id));
    expect(n).toBe(0);
  });

  it("serves a dangerous type as application/octet-stream, a safe one as uploaded, always as an attachment with nosniff", async () => {
    const p = await draftChallenge(database.db, trainer);
    const html = expectStatus(await upload(p, fileForm("page.html", new TextEncoder().encode("<script>alert(1)</script>"), "text/html")), 201);
    expect(html.content_type).toBe("text/html");
    const svg = expectStatus(await upload(p, fileForm("logo.svg", new TextEncoder().encode("<svg onload=alert(1)>"), "image/svg+xml; charset=utf-8")), 201);
    expect(svg.content_type).toBe("image/svg+xml");
    const png = expectStatus(await upload(p, fileForm("stego.png", new Uint8Array([0x89, 0x50, 0x4e, 0x47]), "image/png")), 201);
    const odd = expectStatus(await upload(p, fileForm("odd.bin", sampleFileBytes, "not a type")), 201);
    expect(odd.content_type).toBe("application/octet-stream");
    for (const [file, served] of [
      [html, "application/octet-stream"],
      [svg, "application/octet-stream"],
      [png, "image/png"],
    ] as const) {
      const download = await organiserDownload({ ...p, file_id: file.id });
      expect(download.headers.get("content-type")).toBe(served);
      expect(download.headers.get("content-disposition")).toMatch(/^attachment; /);
      expect(download.headers.get("x-content-type-options")).toBe("nosniff");
      expect(download.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
    }
    expect(safeContentType("application/xhtml+xml")).toBe("application/octet-stream");
    expect(contentDisposition("a.txt")).toBe(`attachment; filename="a.txt"; filename*=UTF-8''a.txt`);
  });
});

describe("who may download, and when", () => {
  it("answers 401 to nobody, to an unknown cookie and to another competition's player", async () => {
    const { params, cookie } = await playableFile(database.db, trainer);
    const other = await playableFile(database.db, trainer);
    expectError(await playerDownload(params), 401, "unauthorized");
    const [name] = cookie.split("=");
    expectError(await playerDownload(params, `${name}=cp_${"A".repeat(43)}`), 401, "unauthorized");
    expectError(await playerDownload(params, other.cookie), 401, "unauthorized");
    expect((await playerDownload(params, cookie)).status).toBe(200);
  });

  it("answers 404 to another competition's challenge and to another challenge's file, with a missing one's message", async () => {
    const { params, cookie } = await playableFile(database.db, trainer);
    const other = await playableFile(database.db, trainer);
    const foreign = expectError(await playerDownload({ ...params, challenge_id: other.params.challenge_id }, cookie), 404, "not_found");
    expect(foreign.message).toBe("Challenge not found.");
    const sibling = await draftChallenge(database.db, trainer, params.ctf_id);
    const siblingFile = await storedFile(database.db, trainer, sibling);
    await publishChallenge(database.db, trainer.workspaceId, sibling.ctf_id, sibling.challenge_id);
    await completePublish(database.db, sibling.challenge_id);
    expect(expectError(await playerDownload({ ...params, file_id: siblingFile }, cookie), 404, "not_found").message).toBe("File not found.");
    expect((await playerDownload({ ...sibling, file_id: siblingFile }, cookie)).status).toBe(200);
  });

  it("answers 404 for a challenge that is not published (unpublished during the competition)", async () => {
    const { params, cookie } = await playableFile(database.db, trainer);
    await unpublishChallenge(database.db, trainer.workspaceId, params.ctf_id, params.challenge_id);
    await completeUnpublish(database.db, params.challenge_id);
    expect(expectError(await playerDownload(params, cookie), 404, "not_found").message).toBe("Challenge not found.");
  });

  it("answers 409 before the start, after the end and once stopped, naming why", async () => {
    const { params, cookie } = await playableFile(database.db, trainer);
    await database.db.update(ctfs).set({ startsAt: new Date(Date.now() + HOUR), endsAt: new Date(Date.now() + 2 * HOUR) }).where(eq(ctfs.id, params.ctf_id));
    expect(expectError(await playerDownload(params, cookie), 409, "conflict").message).toMatch(/starts at \d{4}-/);
    await database.db.update(ctfs).set({ startsAt: new Date(Date.now() - 2 * HOUR), endsAt: new Date(Date.now() - 1000) }).where(eq(ctfs.id, params.ctf_id));
    expect(expectError(await playerDownload(params, cookie), 409, "conflict").message).toMatch(/ended at/);
    await database.db.update(ctfs).set({ endsAt: new Date(Date.now() + HOUR) }).where(eq(ctfs.id, params.ctf_id));
    expect((await playerDownload(params, cookie)).status).toBe(200);
    await stopCtf(database.db, trainer.workspaceId, params.ctf_id);
    expect(expectError(await playerDownload(params, cookie), 409, "conflict").message).toMatch(/it is stopped/);
  });

  it("lists each published challenge's files for the players' page, not a draft's", async () => {
    const { params } = await playableFile(database.db, trainer);
    const draft = await draftChallenge(database.db, trainer, params.ctf_id);
    await storedFile(database.db, trainer, draft, "secret-draft.bin");
    expect(await playerFiles(database.db, params.ctf_id)).toEqual({
      [params.challenge_id]: [{ id: params.file_id, name: "challenge.bin", size: sampleFileBytes.length, sha256: sha256(sampleFileBytes) }],
    });
  });
});

describe("the organiser's routes", () => {
  it("answer 404 to another workspace's challenge and file, and change nothing", async () => {
    const p = await draftChallenge(database.db, trainer);
    const fileId = await storedFile(database.db, trainer, p);
    const stranger = await createTrainer(database.db);
    expectError(await list(p, stranger.secret), 404, "not_found");
    expectError(await upload(p, fileForm(), stranger.secret), 404, "not_found");
    expectError(await organiserDownload({ ...p, file_id: fileId }, stranger.secret), 404, "not_found");
    expectError(await remove({ ...p, file_id: fileId }, stranger.secret), 404, "not_found");
    // A file of the owner named under another of the owner's challenges is not found either.
    const other = await draftChallenge(database.db, trainer);
    expectError(await remove({ ...other, file_id: fileId }), 404, "not_found");
    expect(expectStatus(await list(p), 200).data.map((file: { id: string }) => file.id)).toEqual([fileId]);
  });

  it("need ctf:read to list and download, ctf:write to upload and delete (403 otherwise)", async () => {
    const p = await draftChallenge(database.db, trainer);
    const fileId = await storedFile(database.db, trainer, p);
    // Narrow keys of the trainer's own workspace.
    const { createApiKey } = await import("@/lib/platform/keys");
    const readOnly = (await createApiKey(database.db, trainer.workspaceId, { name: "read only", scopes: ["ctf:read"] })).secret;
    const writeOnly = (await createApiKey(database.db, trainer.workspaceId, { name: "write only", scopes: ["ctf:write"] })).secret;
    expectStatus(await list(p, readOnly), 200);
    expect((await organiserDownload({ ...p, file_id: fileId }, readOnly)).status).toBe(200);
    expectError(await upload(p, fileForm(), readOnly), 403, "forbidden");
    expectError(await remove({ ...p, file_id: fileId }, readOnly), 403, "forbidden");
    expectError(await list(p, writeOnly), 403, "forbidden");
    expectStatus(await upload(p, fileForm("more.bin"), writeOnly), 201);
    expectStatus(await remove({ ...p, file_id: fileId }, writeOnly), 200);
  });

  it("change files only while the challenge can be edited and the competition is not archived (409)", async () => {
    const { params } = await playableFile(database.db, trainer);
    expect(expectError(await upload(params, fileForm()), 409, "conflict").message).toMatch(/published challenge cannot change; unpublish it first/);
    expectError(await remove(params), 409, "conflict");
    // The organiser still downloads it.
    expect((await organiserDownload(params)).status).toBe(200);
    await archiveCtf(database.db, trainer.workspaceId, params.ctf_id);
    expect(expectError(await upload(params, fileForm()), 409, "conflict").message).toMatch(/archived/);
    const [{ n }] = await database.db.select({ n: count() }).from(challengeFiles).where(and(eq(challengeFiles.challengeId, params.challenge_id)));
    expect(n).toBe(1);
    // A challenge still being generated: not yet.
    const building = await draftChallenge(database.db, trainer);
    await database.db.update(challenges).set({ status: "generating" }).where(eq(challenges.id, building.challenge_id));
    expect(expectError(await upload(building, fileForm()), 409, "conflict").message).toBe("The files of a generating challenge cannot change; try again once it is no longer generating.");
  });

  it("serve the dashboard's session; refuse its cross-origin upload (403)", async () => {
    const p = await draftChallenge(database.db, trainer);
    signInAs(trainer);
    try {
      const refused = await call(filesRoute.POST, filesUrl(p), { method: "POST", params: p, body: fileForm(), headers: { origin: "https://evil.example", "x-forwarded-host": "localhost" } });
      expectError(refused, 403, "forbidden");
      const accepted = await call(filesRoute.POST, filesUrl(p), { method: "POST", params: p, body: fileForm(), headers: origin });
      expect(accepted.status).toBe(201);
    } finally {
      signInAs(undefined);
    }
  });
});

describe("the S3 storage", () => {
  beforeEach(() => storeFilesIn("s3"));

  it("signs each request (SigV4, the payload's SHA-256 on PUT) and keeps the content type", async () => {
    const p = await draftChallenge(database.db, trainer);
    const before = s3.calls.length;
    const created = expectStatus(await upload(p, fileForm("notes.txt", new TextEncoder().encode("hello"), "text/plain")), 201);
    const put = s3.calls.slice(before).find((c) => c.method === "PUT")!;
    expect(put).toMatchObject({ path: `/${s3.bucket}/challenge-files/${trainer.workspaceId}/${created.id}`, status: 200, contentType: "text/plain", payloadHash: created.sha256 });
    expect(s3.objects.get(`challenge-files/${trainer.workspaceId}/${created.id}`)?.bytes.toString()).toBe("hello");
    expect(s3.calls.slice(before).every((c) => c.status < 300)).toBe(true);
  });

  it("the fake refuses a wrong secret, region or bucket: the upload answers 503, stores no row; the store's answer is logged, not sent", async () => {
    const p = await draftChallenge(database.db, trainer);
    const logs = captureLogs();
    try {
      for (const [name, value] of [
        ["S3_SECRET_ACCESS_KEY", "not-the-secret"],
        ["S3_REGION", "us-west-2"],
        ["S3_BUCKET", "another-bucket"],
      ]) {
        storeFilesIn("s3");
        vi.stubEnv(name, value);
        const before = s3.calls.length;
        const error = expectError(await upload(p, fileForm()), 503, "service_unavailable");
        expect(error.message).toBe("The file storage is unavailable. Try again in a few seconds.");
        const code = name === "S3_BUCKET" ? "NoSuchBucket" : "SignatureDoesNotMatch";
        expect(s3.calls.slice(before).find((c) => c.method === "PUT")!.code, name).toBe(code);
        expect(logs.lines.at(-1)).toMatchObject({ level: "error", context: "file-storage", storage: "s3", operation: "PUT", status: code === "NoSuchBucket" ? 404 : 403, s3_code: code });
      }
      expect(logs.text()).not.toContain("not-the-secret");
    } finally {
      logs.restore();
    }
    expect(expectStatus(await list(p), 200).data).toEqual([]);
  });

  it("retries a store answering 5xx, and answers 503 when it keeps failing", async () => {
    const p = await draftChallenge(database.db, trainer);
    s3.failNext(500, 2);
    expectStatus(await upload(p, fileForm("retried.bin")), 201);
    s3.failNext(503, 3);
    const logs = captureLogs();
    try {
      expectError(await upload(p, fileForm("failed.bin")), 503, "service_unavailable");
      expect(logs.lines.at(-1)).toMatchObject({ context: "file-storage", operation: "PUT", status: 503, s3_code: "SlowDown" });
    } finally {
      logs.restore();
    }
    expect(expectStatus(await list(p), 200).data.map((file: { name: string }) => file.name)).toEqual(["retried.bin"]);
  });

  it("a file whose bytes went missing from the store is a 404 for the player, not a 500", async () => {
    const { params, cookie } = await playableFile(database.db, trainer);
    await fileStorage(database.db).delete(`challenge-files/${trainer.workspaceId}/${params.file_id}`);
    const logs = captureLogs();
    try {
      expect(expectError(await playerDownload(params, cookie), 404, "not_found").message).toBe("File not found.");
      expect(logs.lines.at(-1)).toMatchObject({ level: "warn", context: "file-storage", file_id: params.file_id });
    } finally {
      logs.restore();
    }
  });

  it("the fake checks the signature itself: a signed request replayed with another method, path or body is refused", async () => {
    const { AwsClient } = await import("aws4fetch");
    const client = new AwsClient({ accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey, service: "s3", region: s3.region, retries: 0 });
    const url = `${s3.endpoint}/${s3.bucket}/challenge-files/ws_x/fil_y`;
    const body = new TextEncoder().encode("signed bytes");
    const signed = await client.sign(url, { method: "PUT", body, headers: { "X-Amz-Content-Sha256": sha256(body) } });
    const headers = Object.fromEntries(signed.headers.entries());
    const send = (method: string, target: string, payload?: Uint8Array) => fetch(target, { method, headers, body: payload as BodyInit | undefined });
    expect((await send("PUT", url, body)).status).toBe(200);
    expect((await send("POST", url, body)).status).toBe(403);
    expect((await send("PUT", `${s3.endpoint}/${s3.bucket}/challenge-files/ws_x/fil_z`, body)).status).toBe(403);
    expect((await send("PUT", `${s3.endpoint}/other-bucket/challenge-files/ws_x/fil_y`, body)).status).toBe(403);
    expect((await send("PUT", url, new TextEncoder().encode("other bytes"))).status).toBe(400);
    expect(s3.calls.slice(-4).map((c) => c.code)).toEqual(["SignatureDoesNotMatch", "SignatureDoesNotMatch", "SignatureDoesNotMatch", "XAmzContentSHA256Mismatch"]);
  });

  it("addresses objects path-style or virtual-hosted", () => {
    const settings = { endpoint: "https://s3.eu-west-3.amazonaws.com", bucket: "ctf-files" };
    expect(objectUrl({ ...settings, pathStyle: false }, "challenge-files/ws_1/fil_2")).toBe("https://ctf-files.s3.eu-west-3.amazonaws.com/challenge-files/ws_1/fil_2");
    expect(objectUrl({ ...settings, pathStyle: true }, "challenge-files/ws_1/fil_2")).toBe("https://s3.eu-west-3.amazonaws.com/ctf-files/challenge-files/ws_1/fil_2");
    expect(objectUrl({ endpoint: "http://minio:9000/base/", bucket: "b", pathStyle: true }, "k/x")).toBe("http://minio:9000/base/b/k/x");
  });
});

describe("the configuration", () => {
  it("picks the store by default: S3 with a bucket, the database with DATABASE_URL, else the filesystem; S3 needs both keys", async () => {
    const { parseConfig } = await import("@/lib/kernel/config/config");
    expect(parseConfig({}).files).toEqual({ maxBytes: 10 * 1024 * 1024, storage: { kind: "filesystem", dir: ".data/files" } });
    expect(parseConfig({ DATABASE_URL: "postgres://db/x" }).files.storage).toEqual({ kind: "database" });
    expect(parseConfig({ DATABASE_URL: "postgres://db/x", FILE_STORAGE: "filesystem" }).files.storage.kind).toBe("filesystem");
    expect(parseConfig({ S3_BUCKET: "ctf-files", S3_ACCESS_KEY_ID: "a", S3_SECRET_ACCESS_KEY: "b", S3_REGION: "eu-west-3" }).files.storage).toEqual({
      kind: "s3",
      endpoint: "https://s3.eu-west-3.amazonaws.com",
      region: "eu-west-3",
      bucket: "ctf-files",
      accessKeyId: "a",
      secretAccessKey: "b",
      pathStyle: false,
    });
    const problems = (env: Record<string, string>) => {
      try {
        parseConfig(env);
        return [];
      } catch (error) {
        return (error as ConfigError).problems.map((problem) => problem.variable);
      }
    };
    expect(problems({ FILE_STORAGE: "s3" }).sort()).toEqual(["S3_ACCESS_KEY_ID", "S3_BUCKET", "S3_SECRET_ACCESS_KEY"]);
    expect(problems({ S3_BUCKET: "ctf-files", S3_ACCESS_KEY_ID: "a" })).toEqual(["S3_SECRET_ACCESS_KEY"]);
    expect(problems({ FILE_STORAGE: "ftp" })).toEqual(["FILE_STORAGE"]);
    expect(problems({ FILE_MAX_BYTES: "0" })).toEqual(["FILE_MAX_BYTES"]);
    expect(problems({ FILE_MAX_BYTES: String(200 * 1024 * 1024) })).toEqual(["FILE_MAX_BYTES"]);
    expect(problems({ S3_BUCKET: "Not_A_Bucket", S3_ACCESS_KEY_ID: "a", S3_SECRET_ACCESS_KEY: "b" })).toEqual(["S3_BUCKET"]);
  });
});
