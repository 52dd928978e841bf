import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as fileRoute from "@/app/api/v1/ctfs/[ctf_id]/challenges/[challenge_id]/files/[file_id]/route";
import * as filesRoute from "@/app/api/v1/ctfs/[ctf_id]/challenges/[challenge_id]/files/route";
import { rowsOf } from "@/db";
import { challengeArtifacts, challengeFiles, scheduledSteps } from "@/db/schema";
import { ctfdHost } from "@/lib/ctf/hosting/ctfd";
import { EmbeddedWorker } from "@/lib/platform/pipeline/executors/worker";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { startFakeCtfd, type CtfdFile, type FakeCtfd } from "../../helpers/fake-ctfd";
import { createTrainer } from "../../helpers/fixtures";
import { call } from "../../helpers/http";
import { fileForm } from "../../helpers/samples/files";
import { challengeInput, client, ctfInput, expectStatus, settle, waitUntil, type Client } from "../../helpers/competition";
import { stepRegistry } from "@/lib/registry/steps";

/**
 * Challenge files and generated artifact files on the CTFd host, against the local fake of
 * CTFd's REST API: publishing uploads them (`POST /api/v1/files`, multipart) before the
 * challenge is made visible; a retried publish leaves one copy of each; a file uploaded or
 * deleted while the challenge is on CTFd follows through a scheduled step, retried while
 * CTFd is down.
 */

let database: TestDatabase;
let worker: EmbeddedWorker;
let ctfd: FakeCtfd;
let api: Client;
let key: string;
let workspaceId: string;

beforeAll(async () => {
  ctfd = await startFakeCtfd();
  vi.stubEnv("CTFD_URL", ctfd.url);
  vi.stubEnv("CTFD_TOKEN", ctfd.token);
  vi.stubEnv("WEBHOOK_RETRY_STEP_MS", "200");
  vi.stubEnv("FILE_STORAGE", "database");
  database = await createTestDatabase();
  worker = new EmbeddedWorker(database, { steps: stepRegistry, pollMs: 100 });
  await worker.start();
  const trainer = await createTrainer(database.db);
  workspaceId = trainer.workspaceId;
  key = trainer.secret;
  api = client(key);
});

afterAll(async () => {
  await worker?.stop();
  await database?.drop();
  await ctfd?.close();
  vi.unstubAllEnvs();
});

type Params = { ctf_id: string; challenge_id: string };
const filesUrl = (p: Params) => `/api/v1/ctfs/${p.ctf_id}/challenges/${p.challenge_id}/files`;
const upload = (p: Params, name: string, bytes: Uint8Array, type = "application/octet-stream") =>
  call(filesRoute.POST, filesUrl(p), { method: "POST", key, params: p, body: fileForm(name, bytes, type) });
const remove = (p: Params, fileId: string) => call(fileRoute.DELETE, `${filesUrl(p)}/${fileId}`, { method: "DELETE", key, params: { ...p, file_id: fileId } });

/** Bytes that are not text, different for each seed. */
const bytesOf = (seed: number, length = 2048) => new Uint8Array(Array.from({ length }, (_, i) => (i * seed + 13) % 256));

async function deployed(title: string): Promise<string> {
  const created = expectStatus(await api.createCtf(ctfInput({ title })), 201);
  expect(created.host).toBe("ctfd");
  expectStatus(await api.deploy(created.id), 202);
  expect((await settle(() => api.getCtf(created.id), "deploying")).status).toBe("deployed");
  return created.id;
}

async function published(p: Params) {
  expectStatus(await api.publish(p.ctf_id, p.challenge_id), 202);
  return settle(() => api.getChallenge(p.ctf_id, p.challenge_id), "publishing");
}

async function unpublished(p: Params) {
  expectStatus(await api.unpublish(p.ctf_id, p.challenge_id), 202);
  const challenge = await settle(() => api.getChallenge(p.ctf_id, p.challenge_id), "unpublishing");
  expect(challenge.status).toBe("unpublished");
  return challenge;
}

/** The files CTFd holds for one of its challenges, in upload order. */
const filesOn = (platformChallengeId: number): CtfdFile[] => ctfd.files.filter((file) => file.challenge_id === platformChallengeId);
const nameOf = (file: CtfdFile) => file.location.split("/").at(-1);

/** Downloads a file as a CTFd player would, from `/files/{location}`. */
async function downloadFromCtfd(file: CtfdFile): Promise<Buffer> {
  const response = await fetch(`${ctfd.url}/files/${file.location}`);
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

/** Every due step of the workspace has finished (none pending, none being retried). */
async function stepsSettled(): Promise<void> {
  await waitUntil("every due step finished", async () => {
    const result = await database.db.execute(
      sql`select count(*)::int as n from scheduled_steps where workspace_id = ${workspaceId} and status = 'pending' and (run_at <= now() or attempts > 0)`,
    );
    return rowsOf<{ n: number }>(result)[0].n === 0;
  });
}

async function stepsOf(kind: string) {
  return database.db.select().from(scheduledSteps).where(and(eq(scheduledSteps.workspaceId, workspaceId), eq(scheduledSteps.kind, kind)));
}

async function platformFileIdOf(fileId: string): Promise<number | null> {
  const [row] = await database.db.select({ id: challengeFiles.platformFileId }).from(challengeFiles).where(eq(challengeFiles.id, fileId));
  return row.id;
}

describe("the fake CTFd's files", () => {
  it("parses multipart uploads, serves the bytes at /files/{location}, deletes by id, and refuses a token on another media type", async () => {
    const created = await (
      await fetch(`${ctfd.url}/api/v1/challenges`, {
        method: "POST",
        headers: { authorization: `Token ${ctfd.token}`, "content-type": "application/json" },
        body: JSON.stringify({ name: "Fake check", category: "misc", value: 1, type: "standard", state: "hidden" }),
      })
    ).json();
    const form = new FormData();
    form.set("challenge", String(created.data.id));
    form.set("type", "challenge");
    form.append("file", new Blob([bytesOf(3)]), "one file.bin");
    form.append("file", new Blob([bytesOf(5)]), "two.bin");
    const answer = await fetch(`${ctfd.url}/api/v1/files`, { method: "POST", headers: { authorization: `Token ${ctfd.token}` }, body: form });
    expect(answer.status).toBe(200);
    const body = await answer.json();
    expect(body).toEqual({ success: true, data: [expect.objectContaining({ type: "challenge" }), expect.objectContaining({ type: "challenge" })] });
    // CTFd stores names as werkzeug's secure_filename leaves them.
    expect(body.data.map((file: { location: string }) => file.location.split("/")[1])).toEqual(["one_file.bin", "two.bin"]);
    expect(await downloadFromCtfd(ctfd.files.find((f) => f.id === body.data[0].id)!)).toEqual(Buffer.from(bytesOf(3)));

    const refused = await fetch(`${ctfd.url}/api/v1/files`, { method: "POST", headers: { authorization: `Token ${ctfd.token}`, "content-type": "text/plain" }, body: "x" });
    expect(refused.status).toBe(400);

    const deleted = await fetch(`${ctfd.url}/api/v1/files/${body.data[1].id}`, { method: "DELETE", headers: { authorization: `Token ${ctfd.token}`, "content-type": "application/json" } });
    expect(deleted.status).toBe(200);
    expect(filesOn(created.data.id).map((f) => f.id)).toEqual([body.data[0].id]);
    const again = await fetch(`${ctfd.url}/api/v1/files/${body.data[1].id}`, { method: "DELETE", headers: { authorization: `Token ${ctfd.token}`, "content-type": "application/json" } });
    expect(again.status).toBe(404);
    ctfd.calls.length = 0;
  });
});

describe("the CTFd client's uploads", () => {
  it("a copy whose id cannot be recorded (another run recorded one first) is deleted again: one copy stays", async () => {
    const host = ctfdHost({ url: ctfd.url, token: ctfd.token }, (id) => `http://localhost/d/${id}`);
    const created = await (
      await fetch(`${ctfd.url}/api/v1/challenges`, {
        method: "POST",
        headers: { authorization: `Token ${ctfd.token}`, "content-type": "application/json" },
        body: JSON.stringify({ name: "Raced", category: "misc", value: 1, type: "standard", state: "hidden" }),
      })
    ).json();
    const challenge = { platformChallengeId: created.data.id } as Parameters<typeof host.addChallengeFile>[1];
    const recorded: number[] = [];
    const file = (name: string) => ({
      name,
      contentType: "application/octet-stream",
      bytes: async () => bytesOf(43),
      record: async (id: number) => {
        if (recorded.length) return false;
        recorded.push(id);
        return true;
      },
    });
    await host.addChallengeFile({} as Parameters<typeof host.addChallengeFile>[0], challenge, file("raced.bin"));
    await host.addChallengeFile({} as Parameters<typeof host.addChallengeFile>[0], challenge, file("raced.bin"));
    expect(filesOn(created.data.id).map((f) => f.id)).toEqual(recorded);
    expect(ctfd.callsTo("DELETE", /^\/api\/v1\/files\/\d+$/)).toHaveLength(1);
    ctfd.calls.length = 0;
  });
});

describe("publishing to CTFd", () => {
  it("uploads every file of the challenge, same bytes and names, to its CTFd challenge before it is made visible; CTFd's ids are recorded", async () => {
    const ctfId = await deployed("Files Cup");
    const challenge = expectStatus(await api.createChallenge(ctfId, challengeInput({ title: "Carved", flag: "CTF{carved_out}" })), 201);
    const p = { ctf_id: ctfId, challenge_id: challenge.id };
    const pcap = expectStatus(await upload(p, "capture.pcap", bytesOf(7, 5000), "application/vnd.tcpdump.pcap"), 201);
    const notes = expectStatus(await upload(p, "notes-v2.txt", new TextEncoder().encode("the key is in the capture\n"), "text/plain"), 201);
    // Nothing goes to CTFd before publishing.
    expect(ctfd.callsTo("POST", "/api/v1/files")).toHaveLength(0);
    expect(await stepsOf("challenge.file.upload")).toHaveLength(0);

    const done = await published(p);
    expect(done).toMatchObject({ status: "published", last_error: null });
    const remote = filesOn(done.platform_challenge_id);
    expect(remote.map(nameOf)).toEqual(["capture.pcap", "notes-v2.txt"]);
    expect(remote.map((file) => file.type)).toEqual(["challenge", "challenge"]);
    expect(await downloadFromCtfd(remote[0])).toEqual(Buffer.from(bytesOf(7, 5000)));
    expect((await downloadFromCtfd(remote[1])).toString("utf8")).toBe("the key is in the capture\n");
    expect(remote.map((file) => file.contentType)).toEqual(["application/vnd.tcpdump.pcap", "text/plain"]);
    expect(await platformFileIdOf(pcap.id)).toBe(remote[0].id);
    expect(await platformFileIdOf(notes.id)).toBe(remote[1].id);

    const uploads = ctfd.callsTo("POST", "/api/v1/files");
    expect(uploads).toHaveLength(2);
    for (const upload of uploads) {
      expect(upload.authorization).toBe(`Token ${ctfd.token}`);
      expect(upload.contentType).toMatch(/^multipart\/form-data; boundary=/);
      expect(upload.body.fields).toEqual({ challenge: String(done.platform_challenge_id), type: "challenge" });
      expect(upload.body.files).toHaveLength(1);
    }
    // Hidden until its files are in: the last upload comes before the PATCH that shows it.
    const order = ctfd.calls.map((c) => `${c.method} ${c.path}`);
    const visible = ctfd.calls.findIndex((c) => c.method === "PATCH" && c.path === `/api/v1/challenges/${done.platform_challenge_id}` && c.body?.state === "visible");
    expect(order.lastIndexOf("POST /api/v1/files")).toBeLessThan(visible);
  });

  it("a generated challenge's artifact file arrives with it; a web target stays on this app (no file)", async () => {
    const ctfId = await deployed("Generated Cup");
    const diary = expectStatus(await api.generate(ctfId, { category: "crypto", difficulty: "easy", template: "caesars-diary" }), 202);
    const jar = expectStatus(await api.generate(ctfId, { category: "web", difficulty: "easy", template: "cookie-jar" }), 202);
    for (const id of [diary.id, jar.id]) expect((await settle(() => api.getChallenge(ctfId, id), "generating")).status).toBe("draft");

    const diaryDone = await published({ ctf_id: ctfId, challenge_id: diary.id });
    expect(diaryDone.status).toBe("published");
    const [artifact] = await database.db.select().from(challengeArtifacts).where(eq(challengeArtifacts.challengeId, diary.id));
    const remote = filesOn(diaryDone.platform_challenge_id);
    expect(remote.map(nameOf)).toEqual([artifact.fileName]);
    expect(await downloadFromCtfd(remote[0])).toEqual(Buffer.from(artifact.fileData!));
    expect(artifact.platformFileId).toBe(remote[0].id);

    const jarDone = await published({ ctf_id: ctfId, challenge_id: jar.id });
    expect(jarDone.status).toBe("published");
    expect(filesOn(jarDone.platform_challenge_id)).toEqual([]);

    // Unpublished and published again: nothing is uploaded twice.
    const before = ctfd.callsTo("POST", "/api/v1/files").length;
    await unpublished({ ctf_id: ctfId, challenge_id: diary.id });
    expect((await published({ ctf_id: ctfId, challenge_id: diary.id })).status).toBe("published");
    expect(ctfd.callsTo("POST", "/api/v1/files")).toHaveLength(before);
    expect(filesOn(diaryDone.platform_challenge_id)).toHaveLength(1);
  });

  it("CTFd failing after the first upload → publish_failed, nothing visible; the retry ends with exactly one copy of each file", async () => {
    const ctfId = await deployed("Flaky Files");
    const challenge = expectStatus(await api.createChallenge(ctfId, challengeInput({ title: "Twice", flag: "CTF{twice_shy}" })), 201);
    const p = { ctf_id: ctfId, challenge_id: challenge.id };
    const first = expectStatus(await upload(p, "first.bin", bytesOf(11)), 201);
    const second = expectStatus(await upload(p, "second.bin", bytesOf(17)), 201);

    ctfd.failOnce("POST /api/v1/files", 1);
    const failed = await published(p);
    expect(failed.status).toBe("publish_failed");
    expect(failed.last_error).toContain("500");
    // The half-made challenge was deleted with the file it had received: no visible challenge, no recorded id.
    expect(ctfd.challenges.filter((c) => c.name === "Twice" && !c.deleted)).toEqual([]);
    expect(await platformFileIdOf(first.id)).toBeNull();

    const done = await published(p);
    expect(done.status).toBe("published");
    expect(ctfd.challenges.filter((c) => c.name === "Twice" && !c.deleted).map((c) => c.id)).toEqual([done.platform_challenge_id]);
    const remote = filesOn(done.platform_challenge_id);
    expect(remote.map(nameOf)).toEqual(["first.bin", "second.bin"]);
    expect(ctfd.files.filter((file) => ["first.bin", "second.bin"].includes(nameOf(file)!))).toHaveLength(2);
    expect(await downloadFromCtfd(remote[1])).toEqual(Buffer.from(bytesOf(17)));
    expect([await platformFileIdOf(first.id), await platformFileIdOf(second.id)]).toEqual(remote.map((file) => file.id));
  });

  it("a republish failing after its first upload keeps what arrived: the retry uploads only the rest", async () => {
    const ctfId = await deployed("Republish Files");
    const challenge = expectStatus(await api.createChallenge(ctfId, challengeInput({ title: "Again", flag: "CTF{again_and_again}" })), 201);
    const p = { ctf_id: ctfId, challenge_id: challenge.id };
    const done = await published(p);
    await unpublished(p);

    // Added while hidden, with CTFd refusing uploads until the steps give up: left for the next publish.
    ctfd.failRoutes(["POST /api/v1/files"]);
    let files: { id: string }[];
    try {
      files = [expectStatus(await upload(p, "a.bin", bytesOf(19)), 201), expectStatus(await upload(p, "b.bin", bytesOf(23)), 201)];
      await stepsSettled();
    } finally {
      ctfd.failRoutes([]);
    }
    expect((await stepsOf("challenge.file.upload")).filter((step) => step.payload && files.some((f) => (step.payload as { fileId: string }).fileId === f.id)).map((step) => step.status)).toEqual(["failed", "failed"]);
    expect(filesOn(done.platform_challenge_id)).toEqual([]);

    ctfd.failOnce("POST /api/v1/files", 1);
    const failed = await published(p);
    expect(failed.status).toBe("publish_failed");
    expect(await platformFileIdOf(files[0].id)).toBe(filesOn(done.platform_challenge_id)[0].id);
    expect(ctfd.challenges.find((c) => c.id === done.platform_challenge_id)?.state).toBe("hidden");

    const again = await published(p);
    expect(again).toMatchObject({ status: "published", platform_challenge_id: done.platform_challenge_id });
    expect(filesOn(done.platform_challenge_id).map(nameOf)).toEqual(["a.bin", "b.bin"]);
  });
});

describe("files changed while the challenge is on CTFd", () => {
  let p: Params;
  let platformId: number;

  it("a published challenge's files still cannot change (409, unpublish first)", async () => {
    const ctfId = await deployed("Live Files");
    const challenge = expectStatus(await api.createChallenge(ctfId, challengeInput({ title: "Live", flag: "CTF{live_files}" })), 201);
    p = { ctf_id: ctfId, challenge_id: challenge.id };
    const kept = expectStatus(await upload(p, "kept.bin", bytesOf(29)), 201);
    const done = await published(p);
    platformId = done.platform_challenge_id;
    expect(filesOn(platformId).map(nameOf)).toEqual(["kept.bin"]);
    expect((await upload(p, "late.bin", bytesOf(31))).status).toBe(409);
    expect((await remove(p, kept.id)).status).toBe(409);
  });

  it("uploaded after publishing (while unpublished, hidden on CTFd) → a step uploads it to the CTFd challenge; publishing again does not upload it twice", async () => {
    await unpublished(p);
    const late = expectStatus(await upload(p, "late.bin", bytesOf(31)), 201);
    await waitUntil("late.bin on CTFd", async () => filesOn(platformId).some((file) => nameOf(file) === "late.bin"));
    await stepsSettled();
    const remote = filesOn(platformId).find((file) => nameOf(file) === "late.bin")!;
    expect(await downloadFromCtfd(remote)).toEqual(Buffer.from(bytesOf(31)));
    expect(await platformFileIdOf(late.id)).toBe(remote.id);

    const uploads = ctfd.callsTo("POST", "/api/v1/files").length;
    expect((await published(p)).status).toBe("published");
    expect(ctfd.callsTo("POST", "/api/v1/files")).toHaveLength(uploads);
    expect(filesOn(platformId).map(nameOf)).toEqual(["kept.bin", "late.bin"]);
  });

  it("deleted after publishing → a step deletes it from CTFd; the other files stay", async () => {
    await unpublished(p);
    const [kept] = await database.db.select().from(challengeFiles).where(and(eq(challengeFiles.challengeId, p.challenge_id), eq(challengeFiles.name, "kept.bin")));
    const platformFileId = kept.platformFileId!;
    expectStatus(await remove(p, kept.id), 200);
    await waitUntil("kept.bin gone from CTFd", async () => !ctfd.files.some((file) => file.id === platformFileId));
    await stepsSettled();
    expect(ctfd.callsTo("DELETE", `/api/v1/files/${platformFileId}`)).toHaveLength(1);
    expect(filesOn(platformId).map(nameOf)).toEqual(["late.bin"]);
  });

  it("CTFd down → the upload and delete steps are retried, and nothing is lost once it is back", async () => {
    const [late] = await database.db.select().from(challengeFiles).where(and(eq(challengeFiles.challengeId, p.challenge_id), eq(challengeFiles.name, "late.bin")));
    // Retries 3 s apart: time to see both steps waiting to be tried again before CTFd comes back.
    vi.stubEnv("WEBHOOK_RETRY_STEP_MS", "3000");
    await ctfd.setMode("down");
    let added: { id: string };
    try {
      added = expectStatus(await upload(p, "while-down.bin", bytesOf(37)), 201);
      expectStatus(await remove(p, late.id), 200);
      await waitUntil("both steps tried once and waiting to retry", async () => {
        const steps = [...(await stepsOf("challenge.file.upload")), ...(await stepsOf("challenge.file.delete"))].filter((step) => step.status === "pending");
        return steps.length === 2 && steps.every((step) => step.attempts >= 1 && /unreachable/.test(step.lastError ?? ""));
      });
    } finally {
      await ctfd.setMode("ok");
      vi.stubEnv("WEBHOOK_RETRY_STEP_MS", "200");
    }
    await waitUntil("the steps done once CTFd is back", async () => filesOn(platformId).map(nameOf).join() === "while-down.bin");
    await stepsSettled();
    const remote = filesOn(platformId);
    expect(remote.map(nameOf)).toEqual(["while-down.bin"]);
    expect(await downloadFromCtfd(remote[0])).toEqual(Buffer.from(bytesOf(37)));
    expect(await platformFileIdOf(added.id)).toBe(remote[0].id);
  });

  it("a file deleted before its upload step ran never reaches CTFd", async () => {
    await ctfd.setMode("down");
    try {
      const gone = expectStatus(await upload(p, "never.bin", bytesOf(41)), 201);
      expectStatus(await remove(p, gone.id), 200);
    } finally {
      await ctfd.setMode("ok");
    }
    await stepsSettled();
    expect(ctfd.files.some((file) => nameOf(file) === "never.bin")).toBe(false);
  });
});
