import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import * as attemptsRoute from "@/app/api/d/[deployment_id]/attempts/route";
import * as unlockRoute from "@/app/api/d/[deployment_id]/hints/[n]/unlock/route";
import * as joinRoute from "@/app/api/d/[deployment_id]/join/route";
import * as solvesRoute from "@/app/api/v1/deployments/[deployment_id]/solves/route";
import { deploymentAttempts, deploymentHintUnlocks, deploymentPlayers, deployments, deploymentSolves } from "@/db/schema";
import { DEPLOYMENT_CLIENT_ATTEMPT_LIMIT, DEPLOYMENT_JOIN_LIMIT } from "@/lib/ctf/deployments/play";
import { stopDeployment } from "@/lib/ctf/deployments/deployments";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { createTrainer, type Trainer } from "../../helpers/fixtures";
import { call } from "../../helpers/http";
import { deploymentPlayerOf, liveDeploymentOf } from "../../helpers/samples/deployment-play";
import { expectStatus } from "../../helpers/competition";
import { deploymentPage } from "@/lib/ctf/deployments/page";

/**
 * Playing a standalone deployment (`/d/{deployment_id}`): whoever has the link plays under a
 * display name (a deployment-scoped cookie), submits flags (throttled like a competition's
 * attempts, plus per client address), unlocks hints; solves are recorded to the deployment
 * and the organiser reads them. After the window or once stopped: 409, "no longer live".
 */

let database: TestDatabase;
let trainer: Trainer;
const origin = { origin: "http://localhost", "x-forwarded-host": "localhost" };

beforeAll(async () => {
  vi.stubEnv("CTFD_URL", "");
  vi.stubEnv("CTFD_TOKEN", "");
  database = await createTestDatabase();
});
beforeEach(async () => {
  trainer = await createTrainer(database.db);
});
afterAll(async () => {
  await database?.drop();
  vi.unstubAllEnvs();
});

const join = (deploymentId: string, body: unknown, headers: Record<string, string> = origin) =>
  call(joinRoute.POST, `/api/d/${deploymentId}/join`, { method: "POST", params: { deployment_id: deploymentId }, body, headers });
const submit = (cookie: string | undefined, deploymentId: string, flag: string, headers: Record<string, string> = origin) =>
  call(attemptsRoute.POST, `/api/d/${deploymentId}/attempts`, { method: "POST", params: { deployment_id: deploymentId }, body: { flag }, headers: { ...headers, ...(cookie ? { cookie } : {}) } });
const unlock = (cookie: string, deploymentId: string, n: number) =>
  call(unlockRoute.POST, `/api/d/${deploymentId}/hints/${n}/unlock`, { method: "POST", params: { deployment_id: deploymentId, n: String(n) }, headers: { ...origin, cookie } });
const solves = (deploymentId: string, query?: Record<string, number>, key = trainer.secret) =>
  call(solvesRoute.GET, `/api/v1/deployments/${deploymentId}/solves`, { key, params: { deployment_id: deploymentId }, query });

describe("joining a live deployment", () => {
  it("makes a player under a display name, signed in by an HttpOnly cookie for this deployment only", async () => {
    const { deploymentId } = await liveDeploymentOf(database.db, trainer);
    const joined = await join(deploymentId, { name: "  Neo  " });
    expect(joined.status).toBe(201);
    expect(joined.body).toEqual({ player_id: expect.stringMatching(/^dpl_[0-9A-Z]{26}$/), name: "Neo" });
    const cookie = joined.headers.get("set-cookie")!;
    expect(cookie).toMatch(new RegExp(`^dep_player_${deploymentId}=dp_[A-Za-z0-9_-]{43}; Path=/; Max-Age=\\d+; HttpOnly; SameSite=Lax$`));
    const [row] = await database.db.select().from(deploymentPlayers).where(eq(deploymentPlayers.id, joined.body.player_id));
    // Only the token's hash is stored.
    expect(row.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(cookie).not.toContain(row.tokenHash);
    const token = cookie.split(";")[0];
    expect(expectStatus(await submit(token, deploymentId, "CTF{nope}"), 200).status).toBe("incorrect");
  });

  it("refuses a missing or long name (422), another origin (403), an unknown deployment (404), one not live (409)", async () => {
    const { deploymentId } = await liveDeploymentOf(database.db, trainer);
    const empty = await join(deploymentId, { name: "   " });
    expect(empty.status).toBe(422);
    expect(empty.body.error.fields[0].field).toBe("name");
    expect((await join(deploymentId, { name: "x".repeat(41) })).status).toBe(422);
    expect((await join(deploymentId, { name: "Eve" }, { origin: "https://evil.example", "x-forwarded-host": "localhost" })).status).toBe(403);
    expect((await join("dep_01JD6S1B9R8W6H3KX1ZJ0V5N2Q", { name: "Eve" })).status).toBe(404);
    await stopDeployment(database.db, trainer.workspaceId, deploymentId);
    const stopped = await join(deploymentId, { name: "Late" });
    expect(stopped.status).toBe(409);
    expect(stopped.body.error.message).toMatch(/no longer live: it was stopped/);
    expect(await database.db.select().from(deploymentPlayers).where(eq(deploymentPlayers.deploymentId, deploymentId))).toEqual([]);
  });

  it(`lets ${DEPLOYMENT_JOIN_LIMIT.perClient} players come from one client address per hour, then 429 with Retry-After`, async () => {
    const { deploymentId } = await liveDeploymentOf(database.db, trainer);
    for (let i = 0; i < DEPLOYMENT_JOIN_LIMIT.perClient; i++) await deploymentPlayerOf(database.db, deploymentId, `p${i}`, "198.51.100.7");
    const refused = await deploymentPlayerOf(database.db, deploymentId, "one too many", "198.51.100.7").catch((error) => error);
    expect(refused).toMatchObject({ code: "rate_limit_exceeded", retryAfter: expect.any(Number) });
    // Another address, or another deployment, is not affected.
    await deploymentPlayerOf(database.db, deploymentId, "elsewhere", "198.51.100.8");
    const other = await liveDeploymentOf(database.db, trainer);
    await deploymentPlayerOf(database.db, other.deploymentId, "same address", "198.51.100.7");
    const [{ n }] = await database.db.select({ n: count() }).from(deploymentPlayers).where(eq(deploymentPlayers.deploymentId, deploymentId));
    expect(n).toBe(DEPLOYMENT_JOIN_LIMIT.perClient + 1);
  });
});

describe("flags on a deployment", () => {
  it("answers incorrect, correct (points, score), then already_solved; records every attempt, never a correct flag's text", async () => {
    const { deploymentId } = await liveDeploymentOf(database.db, trainer);
    const neo = await deploymentPlayerOf(database.db, deploymentId, "Neo");
    expect(expectStatus(await submit(neo.cookie, deploymentId, "CTF{nope}"), 200)).toEqual({ status: "incorrect", points: 0, score: 0 });
    expect(expectStatus(await submit(neo.cookie, deploymentId, " CTF{warm} "), 200)).toEqual({ status: "correct", points: 100, score: 100 });
    expect(expectStatus(await submit(neo.cookie, deploymentId, "CTF{warm}"), 200)).toEqual({ status: "already_solved", points: 0, score: 100 });
    const recorded = await database.db.select().from(deploymentAttempts).where(eq(deploymentAttempts.playerId, neo.playerId)).orderBy(deploymentAttempts.createdAt, deploymentAttempts.id);
    expect(recorded.map((a) => [a.result, a.submitted])).toEqual([
      ["incorrect", "CTF{nope}"],
      ["correct", null],
      ["already_solved", null],
    ]);
    const [solve] = await database.db.select().from(deploymentSolves).where(eq(deploymentSolves.playerId, neo.playerId));
    expect(solve).toMatchObject({ deploymentId, points: 100 });
  });

  it("checks the flag in the challenge's mode (case-insensitive, regex)", async () => {
    const insensitive = await liveDeploymentOf(database.db, trainer, { flag: "CTF{Mixed}", flag_mode: "case_insensitive" });
    const a = await deploymentPlayerOf(database.db, insensitive.deploymentId);
    expect(expectStatus(await submit(a.cookie, insensitive.deploymentId, "ctf{mixed}"), 200).status).toBe("correct");
    const regex = await liveDeploymentOf(database.db, trainer, { flag: "CTF\\{[0-9]{3}\\}", flag_mode: "regex" });
    const b = await deploymentPlayerOf(database.db, regex.deploymentId);
    expect(expectStatus(await submit(b.cookie, regex.deploymentId, "CTF{12}"), 200).status).toBe("incorrect");
    expect(expectStatus(await submit(b.cookie, regex.deploymentId, "CTF{123}"), 200).status).toBe("correct");
  });

  it("throttles: the 11th submission within a minute is 429 with Retry-After, even the right flag, and is not recorded", async () => {
    const { deploymentId } = await liveDeploymentOf(database.db, trainer);
    const player = await deploymentPlayerOf(database.db, deploymentId);
    for (let i = 0; i < 10; i++) expect(expectStatus(await submit(player.cookie, deploymentId, `CTF{guess-${i}}`), 200).status).toBe("incorrect");
    for (const flag of ["CTF{guess-10}", "CTF{warm}"]) {
      const refused = await submit(player.cookie, deploymentId, flag);
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe("rate_limit_exceeded");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(refused.body.error.retry_after).toBe(Number(refused.headers.get("retry-after")));
    }
    const [{ n }] = await database.db.select({ n: count() }).from(deploymentAttempts).where(eq(deploymentAttempts.playerId, player.playerId));
    expect(n).toBe(10);
  });

  it(`a new player buys no new guesses: at most ${DEPLOYMENT_CLIENT_ATTEMPT_LIMIT.attempts} flags per client address per minute on a deployment`, async () => {
    vi.stubEnv("TRUSTED_PROXY_HOPS", "1");
    try {
      const { deploymentId } = await liveDeploymentOf(database.db, trainer);
      const from = { ...origin, "x-forwarded-for": "203.0.113.50" };
      const perPlayer = 10;
      let sent = 0;
      while (sent < DEPLOYMENT_CLIENT_ATTEMPT_LIMIT.attempts) {
        const player = await deploymentPlayerOf(database.db, deploymentId, `bot${sent}`);
        for (let i = 0; i < perPlayer && sent < DEPLOYMENT_CLIENT_ATTEMPT_LIMIT.attempts; i++, sent++) expect((await submit(player.cookie, deploymentId, `CTF{${sent}}`, from)).status).toBe(200);
      }
      const fresh = await deploymentPlayerOf(database.db, deploymentId, "fresh");
      const refused = await submit(fresh.cookie, deploymentId, "CTF{warm}", from);
      expect(refused.status).toBe(429);
      expect(refused.body.error.message).toMatch(/from this address/);
      // Another address still plays.
      expect(expectStatus(await submit(fresh.cookie, deploymentId, "CTF{warm}", { ...origin, "x-forwarded-for": "203.0.113.51" }), 200).status).toBe("correct");
    } finally {
      vi.unstubAllEnvs();
      vi.stubEnv("CTFD_URL", "");
      vi.stubEnv("CTFD_TOKEN", "");
    }
  });

  it("makes one solve of concurrent correct submissions; the others answer already_solved", async () => {
    const { deploymentId } = await liveDeploymentOf(database.db, trainer);
    const player = await deploymentPlayerOf(database.db, deploymentId);
    const results = await Promise.all(Array.from({ length: 6 }, () => submit(player.cookie, deploymentId, "CTF{warm}")));
    expect(results.map((r) => r.status)).toEqual(Array(6).fill(200));
    expect(results.map((r) => r.body.status).sort()).toEqual(["already_solved", "already_solved", "already_solved", "already_solved", "already_solved", "correct"]);
    const [{ n }] = await database.db.select({ n: count() }).from(deploymentSolves).where(eq(deploymentSolves.playerId, player.playerId));
    expect(n).toBe(1);
  });

  it("401 without the cookie or with another deployment's; after the window or once stopped, 409 'no longer live' and nothing recorded", async () => {
    const one = await liveDeploymentOf(database.db, trainer);
    const two = await liveDeploymentOf(database.db, trainer);
    const player = await deploymentPlayerOf(database.db, one.deploymentId);
    expect((await submit(undefined, one.deploymentId, "CTF{warm}")).status).toBe(401);
    expect((await submit(player.cookie, two.deploymentId, "CTF{warm}")).status).toBe(401);
    const renamed = player.cookie.replace(one.deploymentId, two.deploymentId);
    expect((await submit(renamed, two.deploymentId, "CTF{warm}")).status).toBe(401);

    await database.db.update(deployments).set({ endsAt: new Date(Date.now() - 1000) }).where(eq(deployments.id, one.deploymentId));
    const late = await submit(player.cookie, one.deploymentId, "CTF{warm}");
    expect(late.status).toBe(409);
    expect(late.body.error.message).toMatch(/no longer live: its window ended at \d{4}-/);
    expect((await unlock(player.cookie, one.deploymentId, 1)).status).toBe(409);
    expect(await database.db.select().from(deploymentAttempts).where(eq(deploymentAttempts.playerId, player.playerId))).toEqual([]);

    const other = await deploymentPlayerOf(database.db, two.deploymentId);
    await stopDeployment(database.db, trainer.workspaceId, two.deploymentId);
    expect((await submit(other.cookie, two.deploymentId, "CTF{warm}")).body.error.message).toMatch(/it was stopped/);
  });
});

describe("hints on a deployment", () => {
  it("serves a hint's text only on unlock, deducts its cost once; no such hint → 404", async () => {
    const { deploymentId, challengeId } = await liveDeploymentOf(database.db, trainer);
    const player = await deploymentPlayerOf(database.db, deploymentId);
    expect(expectStatus(await unlock(player.cookie, deploymentId, 1), 200)).toEqual({ challenge_id: challengeId, hint: 1, text: "Look at the page source.", cost: 10, score: -10 });
    expect(expectStatus(await unlock(player.cookie, deploymentId, 1), 200).score).toBe(-10);
    expect(expectStatus(await unlock(player.cookie, deploymentId, 2), 200)).toMatchObject({ text: "It is in a comment.", cost: 0, score: -10 });
    expect((await unlock(player.cookie, deploymentId, 3)).status).toBe(404);
    expect(expectStatus(await submit(player.cookie, deploymentId, "CTF{warm}"), 200)).toEqual({ status: "correct", points: 100, score: 90 });
    const [{ n }] = await database.db.select({ n: count() }).from(deploymentHintUnlocks).where(and(eq(deploymentHintUnlocks.playerId, player.playerId)));
    expect(n).toBe(2);
    // The page never carries a hint's text.
    expect(JSON.stringify(await deploymentPage(database.db, deploymentId))).not.toContain("page source");
  });
});

describe("the organiser's read of a deployment's solves", () => {
  it("lists the solves first solver first, with hint costs, score and attempts; paginated; another workspace's or a missing deployment → 404", async () => {
    const { deploymentId } = await liveDeploymentOf(database.db, trainer);
    const ann = await deploymentPlayerOf(database.db, deploymentId, "Ann");
    const bob = await deploymentPlayerOf(database.db, deploymentId, "Bob");
    await deploymentPlayerOf(database.db, deploymentId, "Idle");
    await submit(bob.cookie, deploymentId, "CTF{no}");
    await submit(bob.cookie, deploymentId, "CTF{still no}");
    await unlock(bob.cookie, deploymentId, 1);
    await submit(bob.cookie, deploymentId, "CTF{warm}");
    await submit(bob.cookie, deploymentId, "CTF{warm}"); // already solved: not counted
    await submit(ann.cookie, deploymentId, "CTF{warm}");

    const all = expectStatus(await solves(deploymentId), 200);
    expect(all).toEqual({
      data: [
        { player_id: bob.playerId, name: "Bob", points: 100, hints_cost: 10, score: 90, attempts: 3, solved_at: expect.stringMatching(/Z$/) },
        { player_id: ann.playerId, name: "Ann", points: 100, hints_cost: 0, score: 100, attempts: 1, solved_at: expect.stringMatching(/Z$/) },
      ],
      pagination: { page: 1, per_page: 25, total: 2 },
    });
    expect(Date.parse(all.data[0].solved_at)).toBeLessThanOrEqual(Date.parse(all.data[1].solved_at));
    expect(expectStatus(await solves(deploymentId, { page: 2, per_page: 1 }), 200).data.map((row: { name: string }) => row.name)).toEqual(["Ann"]);
    expect((await solves(deploymentId, undefined, (await createTrainer(database.db)).secret)).status).toBe(404);
    expect((await solves("dep_01JD6S1B9R8W6H3KX1ZJ0V5N2Q")).status).toBe(404);
    // Still readable once the deployment is over.
    await stopDeployment(database.db, trainer.workspaceId, deploymentId);
    expect(expectStatus(await solves(deploymentId), 200).pagination.total).toBe(2);
  });
});

describe("the deployment's page states", () => {
  it("live (no hint text), then 'over' after the window or once stopped; deploying; unknown → null", async () => {
    const { deploymentId } = await liveDeploymentOf(database.db, trainer, {}, 30);
    expect(await deploymentPage(database.db, deploymentId)).toMatchObject({ state: "live", challenge: { title: "Warm-up", hints: [{ cost: 10 }, { cost: 0 }] } });
    const [row] = await database.db.select().from(deployments).where(eq(deployments.id, deploymentId));
    expect(await deploymentPage(database.db, deploymentId, new Date(row.endsAt.getTime() + 1))).toEqual({ state: "over", id: deploymentId, title: "Warm-up", ended_at: row.endsAt.toISOString() });
    await stopDeployment(database.db, trainer.workspaceId, deploymentId);
    const stopped = await deploymentPage(database.db, deploymentId);
    expect(stopped).toMatchObject({ state: "over", title: "Warm-up" });
    expect(Date.parse((stopped as { ended_at: string }).ended_at)).toBeLessThan(row.endsAt.getTime());
    await database.db.update(deployments).set({ status: "deploying" }).where(eq(deployments.id, deploymentId));
    expect(await deploymentPage(database.db, deploymentId)).toMatchObject({ state: "deploying" });
    await database.db.update(deployments).set({ status: "deploy_failed" }).where(eq(deployments.id, deploymentId));
    expect(await deploymentPage(database.db, deploymentId)).toMatchObject({ state: "failed" });
    expect(await deploymentPage(database.db, "dep_01JD6S1B9R8W6H3KX1ZJ0V5N2Q")).toBeNull();
    expect(await deploymentPage(database.db, "nonsense")).toBeNull();
  });
});
