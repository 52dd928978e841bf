import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as artifactRoute from "@/app/api/c/[ctf_id]/challenges/[challenge_id]/artifact/route";
import * as artifactFileRoute from "@/app/api/c/[ctf_id]/challenges/[challenge_id]/artifact/file/route";
import * as attemptsRoute from "@/app/api/c/[ctf_id]/challenges/[challenge_id]/attempts/route";
import * as targetRoute from "@/app/api/c/[ctf_id]/challenges/[challenge_id]/target/[page]/route";
import { challenges, members } from "@/db/schema";
import { joinAsPlayer, playerCookieName } from "@/lib/ctf/play/players";
import { difficulties, templateCatalog } from "@/lib/ctf/templates/generate";
import { EmbeddedWorker } from "@/lib/platform/pipeline/executors/worker";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { createTrainer } from "../../helpers/fixtures";
import { call } from "../../helpers/http";
import { memberToken } from "../../helpers/tokens";
import { FLAG, solvers, type Page } from "../../helpers/solvers";
import { client, ctfInput, expectStatus, waitUntil, type Client } from "../../helpers/competition";
import { stepRegistry } from "@/lib/registry/steps";

/**
 * Every shipped template, at every difficulty, is solvable from what a player sees. For each
 * one the organiser generates a challenge through the API (the generation step run by the
 * worker) and publishes it; a joined player reads its artifact and target through the
 * player routes with their cookie, solves it with the template's solver (./solvers.ts:
 * decrypts, forges, injects, follows, parses — never reads the database or the generator)
 * and submits the flag, which the competition answers `correct`.
 */

let database: TestDatabase;
let worker: EmbeddedWorker;
const HOUR = 3_600_000;
const origin = { origin: "http://localhost", "x-forwarded-host": "localhost" };

beforeAll(async () => {
  vi.stubEnv("CTFD_URL", "");
  vi.stubEnv("CTFD_TOKEN", "");
  database = await createTestDatabase();
  worker = new EmbeddedWorker(database, { steps: stepRegistry, pollMs: 50 });
  await worker.start();
});
afterAll(async () => {
  await worker?.stop();
  await database?.drop();
  vi.unstubAllEnvs();
});

/** Waits (reading the database, not spending the key's rate limit) until the step moved the challenge on. */
async function settled(challengeId: string, transitional: string) {
  return waitUntil(`${challengeId} leaving ${transitional}`, async () => {
    const [row] = await database.db.select({ status: challenges.status }).from(challenges).where(eq(challenges.id, challengeId));
    return row && row.status !== transitional ? row.status : undefined;
  });
}

/** A running competition of a fresh workspace (its own rate-limit bucket), deployed through the API, and one joined player. */
async function runningCompetition(): Promise<{ api: Client; ctfId: string; cookie: string }> {
  const api = client((await createTrainer(database.db)).secret);
  const now = Date.now();
  const ctf = expectStatus(await api.createCtf(ctfInput({ starts_at: new Date(now - HOUR).toISOString(), ends_at: new Date(now + 24 * HOUR).toISOString() })), 201);
  expectStatus(await api.deploy(ctf.id), 202);
  await waitUntil("deployed", async () => (await api.getCtf(ctf.id)).body.status === "deployed");
  expectStatus(await api.invite(ctf.id, "player@example.com"), 201);
  const [member] = await database.db.select({ tokenSealed: members.tokenSealed }).from(members).where(eq(members.ctfId, ctf.id));
  const joined = await joinAsPlayer(database.db, memberToken(member), { name: "solver" });
  return { api, ctfId: ctf.id, cookie: `${playerCookieName(ctf.id)}=${joined.sessionToken}` };
}

/** A route handler's answer as bytes (a download is not text). */
async function fetchBytes(handler: typeof artifactFileRoute.GET, path: string, params: Record<string, string>, cookie: string) {
  const response = await handler(new Request(`http://localhost${path}`, { headers: { cookie } }), { params: Promise.resolve(params) });
  return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
}

describe.each(templateCatalog.map((entry) => ({ ...entry })))("$title ($key, $category)", ({ key, category, artifact }) => {
  let game: Awaited<ReturnType<typeof runningCompetition>>;
  beforeAll(async () => {
    game = await runningCompetition();
  });

  it.each([...difficulties])("%s: generated, published, solved from the player's view, answered correct", async (difficulty) => {
    const { api, ctfId, cookie } = game;
    const pending = expectStatus(await api.generate(ctfId, { category, difficulty, template: key }), 202);
    expect(await settled(pending.id, "generating")).toBe("draft");
    const challenge = expectStatus(await api.getChallenge(ctfId, pending.id), 200);
    expect(challenge).toMatchObject({ template: key, category, difficulty, status: "draft" });
    expectStatus(await api.publish(ctfId, challenge.id), 202);
    expect(await settled(challenge.id, "publishing")).toBe("published");

    // What the player gets: the artifact's description, through their cookie.
    const params = { ctf_id: ctfId, challenge_id: challenge.id };
    const base = `/api/c/${ctfId}/challenges/${challenge.id}`;
    const view = expectStatus(await call(artifactRoute.GET, `${base}/artifact`, { params, headers: { cookie } }), 200);
    expect(Boolean(view.file)).toBe(artifact.includes("file"));
    expect(Boolean(view.target)).toBe(artifact.includes("target"));

    let file: Buffer | null = null;
    if (view.file) {
      expect(view.file.url).toBe(`${base}/artifact/file`);
      const download = await fetchBytes(artifactFileRoute.GET, view.file.url, params, cookie);
      expect(download.status).toBe(200);
      expect(download.headers.get("content-type")).toBe("application/octet-stream");
      expect(download.headers.get("content-disposition")).toBe(`attachment; filename="${view.file.name}"`);
      expect(download.headers.get("x-content-type-options")).toBe("nosniff");
      expect(download.body.length).toBe(view.file.size);
      file = download.body;
    }
    if (view.target) expect(view.target.url).toBe(`${base}/target/index`);

    const target = async (page: string, query: Record<string, string> = {}, cookies: Record<string, string> = {}): Promise<Page> => {
      const header = [cookie, ...Object.entries(cookies).map(([name, value]) => `${name}=${value}`)].join("; ");
      const answer = await call(targetRoute.GET, `${base}/target/${page}`, { params: { ...params, page }, query, headers: { cookie: header } });
      if (answer.status < 400) {
        expect(answer.headers.get("content-type")).toBe("text/plain; charset=utf-8");
        expect(answer.headers.get("content-security-policy")).toContain("sandbox");
      }
      return { status: answer.status, text: typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body ?? ""), headers: answer.headers };
    };

    const flag = await solvers[key]({ description: challenge.description, file, target });
    expect(flag).toMatch(FLAG);
    const submitted = await call(attemptsRoute.POST, `${base}/attempts`, { method: "POST", params, body: { flag }, headers: { ...origin, cookie } });
    expect(expectStatus(submitted, 200)).toMatchObject({ status: "correct", points: challenge.points });
  });
});
