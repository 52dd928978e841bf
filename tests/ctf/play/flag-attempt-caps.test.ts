import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as deploymentAttemptsRoute from "@/app/api/d/[deployment_id]/attempts/route";
import { deploymentAttempts, flagAttempts } from "@/db/schema";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { createTrainer, type Trainer } from "../../helpers/fixtures";
import { call } from "../../helpers/http";
import { deploymentPlayerOf, liveDeploymentOf } from "../../helpers/samples/deployment-play";
import { playerOf, publishedChallenge } from "../../helpers/samples/play";
import { expectStatus, playableCompetition, sameOrigin, submitFlagAs } from "../../helpers/competition";

/**
 * Flags per competition and per standalone deployment, whoever sends them: however many
 * players (or client addresses) one guesser holds, a competition or a deployment takes at
 * most FLAG_ATTEMPTS_PER_COMPETITION / FLAG_ATTEMPTS_PER_DEPLOYMENT flags per sliding minute.
 * Past it: 429 in the error shape with Retry-After, whatever the flag (no oracle), nothing
 * recorded. The caps are set to their smallest here (10).
 */

const CAP = 10;
let database: TestDatabase;
let trainer: Trainer;

beforeAll(async () => {
  vi.stubEnv("CTFD_URL", "");
  vi.stubEnv("CTFD_TOKEN", "");
  vi.stubEnv("FLAG_ATTEMPTS_PER_COMPETITION", String(CAP));
  vi.stubEnv("FLAG_ATTEMPTS_PER_DEPLOYMENT", String(CAP));
  database = await createTestDatabase();
  trainer = await createTrainer(database.db);
});
afterAll(async () => {
  await database?.drop();
  vi.unstubAllEnvs();
});

function expectCapped(refused: { status: number; headers: Headers; body: any }, pattern: RegExp) {
  expect(refused.status).toBe(429);
  expect(refused.body.error.code).toBe("rate_limit_exceeded");
  expect(refused.body.error.message).toMatch(pattern);
  expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  expect(refused.body.error.retry_after).toBe(Number(refused.headers.get("retry-after")));
  expect(refused.body.error.request_id).toBe(refused.headers.get("x-request-id"));
}

describe("a competition", () => {
  it(`takes ${CAP} flags a minute from all its players together; then 429 for every player and challenge, even the right flag`, async () => {
    const { ctfId, challengeId } = await playableCompetition(database.db, trainer);
    const second = await publishedChallenge(database.db, trainer, ctfId, { title: "Second", flag: "CTF{two}" });
    // Four players, each far below their own 10 per challenge.
    const players = await Promise.all(Array.from({ length: 4 }, () => playerOf(database.db, trainer, ctfId)));
    for (let i = 0; i < CAP; i++) {
      const player = players[i % players.length];
      expect(expectStatus(await submitFlagAs(player.cookie, ctfId, i % 2 ? second : challengeId, `CTF{guess-${i}}`), 200).status).toBe("incorrect");
    }
    for (const [player, challenge, flag] of [
      [players[0], challengeId, "CTF{warm}"],
      [players[3], second, "CTF{two}"],
      [await playerOf(database.db, trainer, ctfId), challengeId, "CTF{warm}"],
    ] as const) {
      expectCapped(await submitFlagAs(player.cookie, ctfId, challenge, flag), /in this competition.*at most 10 per 60 seconds for all players together/);
    }
    const [{ n }] = await database.db.select({ n: count() }).from(flagAttempts).where(eq(flagAttempts.ctfId, ctfId));
    expect(n).toBe(CAP);

    // Another competition has its own cap.
    const other = await playableCompetition(database.db, trainer);
    const player = await playerOf(database.db, trainer, other.ctfId);
    expect(expectStatus(await submitFlagAs(player.cookie, other.ctfId, other.challengeId, "CTF{warm}"), 200).status).toBe("correct");
  });
});

describe("a standalone deployment", () => {
  const submit = (cookie: string, deploymentId: string, flag: string, client: string) =>
    call(deploymentAttemptsRoute.POST, `/api/d/${deploymentId}/attempts`, {
      method: "POST",
      params: { deployment_id: deploymentId },
      body: { flag },
      headers: { ...sameOrigin, cookie, "x-forwarded-for": client },
    });

  it(`takes ${CAP} flags a minute from all its players and client addresses together; then 429, even the right flag`, async () => {
    const { deploymentId } = await liveDeploymentOf(database.db, trainer);
    // A player per client address, one flag each: no player's and no address's own limit is near.
    for (let i = 0; i < CAP; i++) {
      const player = await deploymentPlayerOf(database.db, deploymentId, `bot${i}`, `203.0.113.${i}`);
      expect(expectStatus(await submit(player.cookie, deploymentId, `CTF{guess-${i}}`, `203.0.113.${i}`), 200).status).toBe("incorrect");
    }
    const fresh = await deploymentPlayerOf(database.db, deploymentId, "fresh", "198.51.100.1");
    expectCapped(await submit(fresh.cookie, deploymentId, "CTF{warm}", "198.51.100.1"), /for this challenge right now.*at most 10 per 60 seconds for all players together/);
    const [{ n }] = await database.db.select({ n: count() }).from(deploymentAttempts).where(eq(deploymentAttempts.deploymentId, deploymentId));
    expect(n).toBe(CAP);

    // Another deployment has its own cap.
    const other = await liveDeploymentOf(database.db, trainer);
    const player = await deploymentPlayerOf(database.db, other.deploymentId, "elsewhere", "198.51.100.1");
    expect(expectStatus(await submit(player.cookie, other.deploymentId, "CTF{warm}", "198.51.100.1"), 200).status).toBe("correct");
  });
});
