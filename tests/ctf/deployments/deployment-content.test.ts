import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import * as artifactFileRoute from "@/app/api/d/[deployment_id]/artifact/file/route";
import * as artifactRoute from "@/app/api/d/[deployment_id]/artifact/route";
import * as attemptsRoute from "@/app/api/d/[deployment_id]/attempts/route";
import * as fileRoute from "@/app/api/d/[deployment_id]/files/[file_id]/route";
import * as targetRoute from "@/app/api/d/[deployment_id]/target/[page]/route";
import { challengeArtifacts, challenges, deployments } from "@/db/schema";
import { deploymentPageContent } from "@/lib/ctf/deployments/content";
import { stopDeployment } from "@/lib/ctf/deployments/deployments";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { createTrainer, type Trainer } from "../../helpers/fixtures";
import { call } from "../../helpers/http";
import { deploymentPlayerOf, liveDeploymentOf, liveDeploymentWithFile, liveGeneratedDeployment } from "../../helpers/samples/deployment-play";
import { draftChallenge, sampleFileBytes, storedFile } from "../../helpers/samples/files";
import { FLAG, solvers, type Page } from "../../helpers/solvers";
import { expectStatus } from "../../helpers/competition";

/**
 * What a standalone deployment's players download: the challenge's files and, for a generated
 * challenge, its artifact (file, web target), under the deployment's rule — its player (401
 * otherwise, the attempts' refusal), while it is live (409 "not live" / "no longer live"
 * otherwise), the deployment's own challenge only (another's file → 404).
 */

let database: TestDatabase;
let trainer: Trainer;
const origin = { origin: "http://localhost", "x-forwarded-host": "localhost" };

beforeAll(async () => {
  vi.stubEnv("CTFD_URL", "");
  vi.stubEnv("CTFD_TOKEN", "");
  // The bytes live with the rows: nothing is left on disk, on PGlite or PostgreSQL.
  vi.stubEnv("FILE_STORAGE", "database");
  database = await createTestDatabase();
});
beforeEach(async () => {
  trainer = await createTrainer(database.db);
});
afterAll(async () => {
  await database?.drop();
  vi.unstubAllEnvs();
});

/** A raw answer: the bytes as they came, the headers, and the JSON of an error. */
async function fetchBytes(handler: (req: Request, context: any) => Promise<Response>, url: string, params: Record<string, string>, cookie?: string) {
  const response = await handler(new Request(`http://localhost${url}`, { headers: cookie ? { cookie } : {} }), { params: Promise.resolve(params) });
  const bytes = Buffer.from(await response.arrayBuffer());
  const json = (response.headers.get("content-type") ?? "").includes("json") ? JSON.parse(bytes.toString("utf8")) : undefined;
  return { status: response.status, headers: response.headers, bytes, json };
}

const download = (deploymentId: string, fileId: string, cookie?: string) =>
  fetchBytes(fileRoute.GET, `/api/d/${deploymentId}/files/${fileId}`, { deployment_id: deploymentId, file_id: fileId }, cookie);
const artifact = (deploymentId: string, cookie?: string) =>
  call(artifactRoute.GET, `/api/d/${deploymentId}/artifact`, { params: { deployment_id: deploymentId }, headers: cookie ? { cookie } : {} });
const artifactFile = (deploymentId: string, cookie?: string) => fetchBytes(artifactFileRoute.GET, `/api/d/${deploymentId}/artifact/file`, { deployment_id: deploymentId }, cookie);
const target = (deploymentId: string, cookie: string | undefined, page = "index", query: Record<string, string> = {}) =>
  call(targetRoute.GET, `/api/d/${deploymentId}/target/${page}`, { params: { deployment_id: deploymentId, page }, query, headers: cookie ? { cookie } : {} });
const submit = (deploymentId: string, cookie: string | undefined, flag: string) =>
  call(attemptsRoute.POST, `/api/d/${deploymentId}/attempts`, { method: "POST", params: { deployment_id: deploymentId }, body: { flag }, headers: { ...origin, ...(cookie ? { cookie } : {}) } });

/** Every content route of a deployment, for the rules they share; `fileId` names a file of its challenge. */
function contentRoutes(deploymentId: string, fileId: string) {
  return {
    file: async (cookie?: string) => {
      const answer = await download(deploymentId, fileId, cookie);
      return { status: answer.status, body: answer.json };
    },
    artifact: (cookie?: string) => artifact(deploymentId, cookie),
    artifactFile: async (cookie?: string) => {
      const answer = await artifactFile(deploymentId, cookie);
      return { status: answer.status, body: answer.json };
    },
    target: (cookie?: string) => target(deploymentId, cookie),
  };
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

describe("a deployment's files", () => {
  it("a joined player downloads one: the bytes, as an attachment, with their digest (the challenge still a draft)", async () => {
    const { deploymentId, challengeId, fileId } = await liveDeploymentWithFile(database.db, trainer);
    const [challenge] = await database.db.select({ status: challenges.status }).from(challenges).where(eq(challenges.id, challengeId));
    expect(challenge.status).toBe("draft");
    const player = await deploymentPlayerOf(database.db, deploymentId);
    const answer = await download(deploymentId, fileId, player.cookie);
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    expect(answer.bytes.equals(Buffer.from(sampleFileBytes))).toBe(true);
    expect(Object.fromEntries(["content-type", "content-length", "content-disposition", "x-content-type-options", "content-security-policy", "cache-control", "repr-digest"].map((name) => [name, answer.headers.get(name)]))).toEqual({
      "content-type": "application/octet-stream",
      "content-length": String(sampleFileBytes.length),
      "content-disposition": `attachment; filename="challenge.bin"; filename*=UTF-8''challenge.bin`,
      "x-content-type-options": "nosniff",
      "content-security-policy": "default-src 'none'; sandbox",
      "cache-control": "private, no-store",
      "repr-digest": `sha-256=:${Buffer.from(sha256(sampleFileBytes), "hex").toString("base64")}:`,
    });
    // Many at once: each gets the same bytes.
    const many = await Promise.all(Array.from({ length: 5 }, () => download(deploymentId, fileId, player.cookie)));
    expect(many.map((one) => [one.status, sha256(one.bytes)])).toEqual(Array(5).fill([200, sha256(sampleFileBytes)]));
  });

  it("refuses whoever has not joined as the flag form does (401, the same message), and another deployment's player", async () => {
    const { deploymentId, fileId } = await liveDeploymentWithFile(database.db, trainer);
    const refusedFlag = await submit(deploymentId, undefined, "CTF{x}");
    expect(refusedFlag.status).toBe(401);
    const refused = await download(deploymentId, fileId);
    expect(refused.status).toBe(401);
    expect(refused.json.error).toMatchObject({ code: "unauthorized", message: refusedFlag.body.error.message });
    expect(refused.bytes.includes(Buffer.from(sampleFileBytes))).toBe(false);
    const other = await liveDeploymentOf(database.db, trainer);
    const stranger = await deploymentPlayerOf(database.db, other.deploymentId);
    expect((await download(deploymentId, fileId, stranger.cookie)).status).toBe(401);
    expect((await download(deploymentId, fileId, stranger.cookie.replace(other.deploymentId, deploymentId))).status).toBe(401);
  });

  it("answers 404 to another deployment's file, a file of another challenge of the same competition and an unknown one, all alike", async () => {
    const mine = await liveDeploymentWithFile(database.db, trainer);
    const theirs = await liveDeploymentWithFile(database.db, await createTrainer(database.db));
    const [{ ctfId }] = await database.db.select({ ctfId: challenges.ctfId }).from(challenges).where(eq(challenges.id, mine.challengeId));
    const sibling = await draftChallenge(database.db, trainer, ctfId);
    const siblingFile = await storedFile(database.db, trainer, sibling, "sibling.bin");
    const player = await deploymentPlayerOf(database.db, mine.deploymentId);
    const answers = await Promise.all([theirs.fileId, siblingFile, "fil_01JD6S1B9R8W6H3KX1ZJ0V5N2Q"].map((fileId) => download(mine.deploymentId, fileId, player.cookie)));
    for (const answer of answers) {
      expect(answer.status).toBe(404);
      expect(answer.json.error).toMatchObject({ code: "not_found", message: "File not found." });
    }
    expect((await download(mine.deploymentId, "nonsense", player.cookie)).status).toBe(404);
  });

  it("are served only while live: after the window, 409 'no longer live: its window ended'; once stopped, 'no longer live: it was stopped'", async () => {
    const ended = await liveDeploymentWithFile(database.db, trainer);
    const late = await deploymentPlayerOf(database.db, ended.deploymentId);
    await database.db.update(deployments).set({ endsAt: new Date(Date.now() - 1000) }).where(eq(deployments.id, ended.deploymentId));
    for (const request of Object.values(contentRoutes(ended.deploymentId, ended.fileId))) {
      const answer = await request(late.cookie);
      expect(answer.status).toBe(409);
      expect(answer.body.error.message).toMatch(/^The challenge is no longer live: its window ended at \d{4}-/);
    }

    const stopped = await liveDeploymentWithFile(database.db, trainer);
    const player = await deploymentPlayerOf(database.db, stopped.deploymentId);
    expect((await download(stopped.deploymentId, stopped.fileId, player.cookie)).status).toBe(200);
    await stopDeployment(database.db, trainer.workspaceId, stopped.deploymentId);
    for (const request of Object.values(contentRoutes(stopped.deploymentId, stopped.fileId))) {
      const answer = await request(player.cookie);
      expect(answer.status).toBe(409);
      expect(answer.body.error.message).toMatch(/^The challenge is no longer live: it was stopped at \d{4}-/);
    }
  });

  it("are not served before the deployment is live: 409 'not live yet'", async () => {
    const { deploymentId, fileId } = await liveDeploymentWithFile(database.db, trainer);
    const player = await deploymentPlayerOf(database.db, deploymentId);
    await database.db.update(deployments).set({ startsAt: new Date(Date.now() + 60_000) }).where(eq(deployments.id, deploymentId));
    const answer = await download(deploymentId, fileId, player.cookie);
    expect(answer.status).toBe(409);
    expect(answer.json.error.message).toBe("The challenge is not live yet: it is being deployed.");
  });
});

describe("a deployment's generated artifact", () => {
  it("gives its player the file and the target under /api/d/{id}, the page the same; the flag found there solves the deployment", async () => {
    const { deploymentId, challengeId } = await liveGeneratedDeployment(database.db, trainer, "caesars-diary");
    const player = await deploymentPlayerOf(database.db, deploymentId);
    const [stored] = await database.db.select().from(challengeArtifacts).where(eq(challengeArtifacts.challengeId, challengeId));
    const view = expectStatus(await artifact(deploymentId, player.cookie), 200);
    expect(view).toEqual({
      challenge_id: challengeId,
      file: { name: "diary.txt", content_type: stored.fileType, size: stored.fileData!.length, url: `/api/d/${deploymentId}/artifact/file` },
      target: null,
    });
    const file = await artifactFile(deploymentId, player.cookie);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("application/octet-stream");
    expect(file.headers.get("content-disposition")).toBe('attachment; filename="diary.txt"');
    expect(file.headers.get("x-content-type-options")).toBe("nosniff");
    expect(file.bytes.equals(stored.fileData!)).toBe(true);

    const page = await deploymentPageContent(database.db, deploymentId, challengeId);
    expect(page).toEqual({ files: [], artifact: { file: { name: "diary.txt", url: view.file.url, size: view.file.size, text: stored.fileData!.toString("utf8") }, target: null } });

    const [challenge] = await database.db.select({ description: challenges.description }).from(challenges).where(eq(challenges.id, challengeId));
    const flag = await solvers["caesars-diary"]({ description: challenge.description, file: file.bytes, target: () => Promise.reject(new Error("no target")) });
    expect(flag).toMatch(FLAG);
    expect(expectStatus(await submit(deploymentId, player.cookie, flag), 200)).toMatchObject({ status: "correct" });
  });

  it("serves its web target to its player, cookies scoped to the deployment's target path; solved from it", async () => {
    const { deploymentId, challengeId } = await liveGeneratedDeployment(database.db, trainer, "cookie-jar");
    const player = await deploymentPlayerOf(database.db, deploymentId);
    const view = expectStatus(await artifact(deploymentId, player.cookie), 200);
    expect(view).toEqual({ challenge_id: challengeId, file: null, target: { url: `/api/d/${deploymentId}/target/index` } });
    const index = await target(deploymentId, player.cookie);
    expect(index.status).toBe(200);
    expect(index.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(index.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
    const login = await target(deploymentId, player.cookie, "login");
    expect(login.headers.getSetCookie()).toEqual([expect.stringMatching(new RegExp(`^jar_session=[^;]+; Path=/api/d/${deploymentId}/target; SameSite=Lax$`))]);
    expect((await target(deploymentId, player.cookie, "nope")).status).toBe(404);
    expect((await target(deploymentId, player.cookie, "../../etc")).status).toBe(404);

    const [challenge] = await database.db.select({ description: challenges.description }).from(challenges).where(eq(challenges.id, challengeId));
    const flag = await solvers["cookie-jar"]({
      description: challenge.description,
      file: null,
      target: async (page, query = {}, cookies = {}): Promise<Page> => {
        const header = [player.cookie, ...Object.entries(cookies).map(([name, value]) => `${name}=${value}`)].join("; ");
        const answer = await target(deploymentId, header, page, query);
        return { status: answer.status, text: typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body ?? ""), headers: answer.headers };
      },
    });
    expect(expectStatus(await submit(deploymentId, player.cookie, flag), 200)).toMatchObject({ status: "correct" });
  });

  it("refuses whoever has not joined (401) and another deployment's player; nothing for a challenge written by hand", async () => {
    const generated = await liveGeneratedDeployment(database.db, trainer, "holiday-snap");
    const other = await liveGeneratedDeployment(database.db, trainer, "holiday-snap");
    const stranger = await deploymentPlayerOf(database.db, other.deploymentId);
    for (const request of Object.values(contentRoutes(generated.deploymentId, "fil_01JD6S1B9R8W6H3KX1ZJ0V5N2Q"))) {
      expect((await request()).status).toBe(401);
      expect((await request(stranger.cookie)).status).toBe(401);
    }
    const player = await deploymentPlayerOf(database.db, generated.deploymentId);
    expect((await artifact(generated.deploymentId, player.cookie)).status).toBe(200);
    expect((await artifactFile(generated.deploymentId, player.cookie)).status).toBe(200);
    expect((await target(generated.deploymentId, player.cookie)).status).toBe(200);

    const byHand = await liveDeploymentOf(database.db, trainer);
    const visitor = await deploymentPlayerOf(database.db, byHand.deploymentId);
    expect(expectStatus(await artifact(byHand.deploymentId, visitor.cookie), 200)).toEqual({ challenge_id: byHand.challengeId, file: null, target: null });
    expect((await artifactFile(byHand.deploymentId, visitor.cookie)).json.error.message).toBe("File not found.");
    expect((await target(byHand.deploymentId, visitor.cookie)).body.error.message).toBe("Target not found.");
    expect(await deploymentPageContent(database.db, byHand.deploymentId, byHand.challengeId)).toEqual({ files: [], artifact: null });
  });
});

describe("the deployment's page content", () => {
  it("lists the challenge's files, oldest first (the page links each to /api/d/{id}/files/{file_id})", async () => {
    const { deploymentId, challengeId, fileId } = await liveDeploymentWithFile(database.db, trainer);
    const [{ ctfId }] = await database.db.select({ ctfId: challenges.ctfId }).from(challenges).where(eq(challenges.id, challengeId));
    const second = await storedFile(database.db, trainer, { ctf_id: ctfId, challenge_id: challengeId }, "notes.txt", new TextEncoder().encode("hello"));
    const content = await deploymentPageContent(database.db, deploymentId, challengeId);
    expect(content).toEqual({
      files: [
        { id: fileId, name: "challenge.bin", size: sampleFileBytes.length, sha256: sha256(sampleFileBytes) },
        { id: second, name: "notes.txt", size: 5, sha256: sha256(new TextEncoder().encode("hello")) },
      ],
      artifact: null,
    });
  });
});
