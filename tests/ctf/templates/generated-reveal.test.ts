import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as artifactRoute from "@/app/api/c/[ctf_id]/challenges/[challenge_id]/artifact/route";
import * as artifactFileRoute from "@/app/api/c/[ctf_id]/challenges/[challenge_id]/artifact/file/route";
import * as attemptsRoute from "@/app/api/c/[ctf_id]/challenges/[challenge_id]/attempts/route";
import * as targetRoute from "@/app/api/c/[ctf_id]/challenges/[challenge_id]/target/[page]/route";
import * as revealRoute from "@/app/api/v1/ctfs/[ctf_id]/challenges/[challenge_id]/reveal/route";
import * as scoreboardRoute from "@/app/api/v1/ctfs/[ctf_id]/scoreboard/route";
import { challengeArtifacts, challenges, ctfs } from "@/db/schema";
import { completeGeneration } from "@/lib/ctf/challenges/challenges";
import { publicCompetition } from "@/lib/ctf/play/public";
import type { ApiScope } from "@/lib/kernel/scopes";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { createTrainer, type Trainer } from "../../helpers/fixtures";
import { call } from "../../helpers/http";
import { generatedChallenge, publishedGenerated } from "../../helpers/samples/generated";
import { playerOf, publishedChallenge, runningCtf } from "../../helpers/samples/play";
import { FLAG } from "../../helpers/solvers";
import { challengeInput, client, ctfInput, expectStatus } from "../../helpers/competition";

/**
 * Generated challenges beyond solving them: the organiser's deliberate reveal of the flag and
 * solution (scope, tenancy, confirmation, only for generated challenges, never in any other
 * answer), the flag fixed by the artifact, and the players' artifact routes under the rules of
 * challenge content (a player, while the competition runs, a published challenge).
 */

let database: TestDatabase;
const origin = { origin: "http://localhost", "x-forwarded-host": "localhost" };
const HOUR = 3_600_000;

beforeAll(async () => {
  vi.stubEnv("CTFD_URL", "");
  vi.stubEnv("CTFD_TOKEN", "");
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.drop();
  vi.unstubAllEnvs();
});

/** The reveal, confirmed unless another body is given (`null`: no body at all). */
const reveal = (key: string, ctfId: string, challengeId: string, body: unknown = { confirm: true }) =>
  call(revealRoute.POST, `/api/v1/ctfs/${ctfId}/challenges/${challengeId}/reveal`, {
    method: "POST",
    key,
    params: { ctf_id: ctfId, challenge_id: challengeId },
    ...(body === null ? {} : { body }),
  });

async function draftGenerated(trainer: Trainer, template: Parameters<typeof generatedChallenge>[3] = "cookie-jar") {
  const ctf = expectStatus(await client(trainer.secret).createCtf(ctfInput()), 201);
  return { ctfId: ctf.id as string, challengeId: await generatedChallenge(database.db, trainer, ctf.id, template) };
}

async function revealedAt(challengeId: string) {
  const [row] = await database.db.select({ at: challengeArtifacts.revealedAt }).from(challengeArtifacts).where(eq(challengeArtifacts.challengeId, challengeId));
  return row?.at ?? null;
}

describe("revealing a generated challenge's flag", () => {
  it("answers the flag, its mode and the solution steps on a confirmed POST, keeps the time, and the flag solves the challenge", async () => {
    const trainer = await createTrainer(database.db);
    const ctfId = await runningCtf(database.db, trainer);
    const challengeId = await publishedGenerated(database.db, trainer, ctfId, "weak-service", "medium");
    const before = Date.now();
    const revealed = expectStatus(await reveal(trainer.secret, ctfId, challengeId), 200);
    expect(revealed).toEqual({
      challenge_id: challengeId,
      template: "weak-service",
      flag: expect.stringMatching(new RegExp(`^${FLAG.source}$`)),
      flag_mode: "exact",
      solution: expect.arrayContaining([expect.stringContaining("manual")]),
      revealed_at: expect.any(String),
    });
    expect(revealed.solution.length).toBeGreaterThanOrEqual(2);
    expect((await revealedAt(challengeId))!.getTime()).toBeGreaterThanOrEqual(before - 1000);

    const player = await playerOf(database.db, trainer, ctfId);
    const params = { ctf_id: ctfId, challenge_id: challengeId };
    const attempt = await call(attemptsRoute.POST, `/api/c/${ctfId}/challenges/${challengeId}/attempts`, { method: "POST", params, body: { flag: revealed.flag }, headers: { ...origin, cookie: player.cookie } });
    expect(expectStatus(attempt, 200).status).toBe("correct");
  });

  it("needs confirm: true in the body (422 otherwise, and nothing is revealed or recorded)", async () => {
    const trainer = await createTrainer(database.db);
    const { ctfId, challengeId } = await draftGenerated(trainer);
    for (const body of [null, {}, { confirm: false }, { confirm: "yes" }, { confirm: 1 }]) {
      const refused = await reveal(trainer.secret, ctfId, challengeId, body);
      expect(refused.status, JSON.stringify(body)).toBe(422);
      expect(refused.body.error.fields).toEqual([expect.objectContaining({ field: "confirm" })]);
      expect(JSON.stringify(refused.body)).not.toMatch(FLAG);
    }
    expect(await revealedAt(challengeId)).toBeNull();
  });

  it("needs ctf:write: ctf:read, ctf:deploy and ctf:admin keys get 403", async () => {
    const trainer = await createTrainer(database.db);
    const { ctfId, challengeId } = await draftGenerated(trainer);
    const keyWith = async (scopes: ApiScope[]) => (await createTrainer(database.db, { email: trainer.email, scopes })).secret;
    for (const scope of ["ctf:read", "ctf:deploy", "ctf:admin"] as const) {
      const refused = await reveal(await keyWith([scope]), ctfId, challengeId);
      expect(refused.status, scope).toBe(403);
      expect(refused.body.error.message).toContain("ctf:write");
    }
    expect(await revealedAt(challengeId)).toBeNull();
    expect(expectStatus(await reveal(await keyWith(["ctf:write"]), ctfId, challengeId), 200).flag).toMatch(FLAG);
  });

  it("answers another workspace 404, as for a challenge that does not exist", async () => {
    const owner = await createTrainer(database.db);
    const intruder = await createTrainer(database.db);
    const { ctfId, challengeId } = await draftGenerated(owner);
    const foreign = await reveal(intruder.secret, ctfId, challengeId);
    expect(foreign.status).toBe(404);
    const missing = await reveal(owner.secret, ctfId, challengeId.replace(/.{4}$/, "ZZZZ"));
    expect(missing.status).toBe(404);
    expect(foreign.body.error.message).toBe(missing.body.error.message);
    expect(await revealedAt(challengeId)).toBeNull();
  });

  it("refuses a challenge written by hand (its flag stays unreadable, a pattern too) and one still generating: 409", async () => {
    const trainer = await createTrainer(database.db);
    const api = client(trainer.secret);
    const ctf = expectStatus(await api.createCtf(ctfInput()), 201);
    for (const body of [challengeInput(), challengeInput({ title: "Pattern", flag: "CTF\\{[a-z]{4}\\}", flag_mode: "regex" })]) {
      const written = expectStatus(await api.createChallenge(ctf.id, body), 201);
      expect(written.template).toBeNull();
      const refused = await reveal(trainer.secret, ctf.id, written.id);
      expect(refused.status).toBe(409);
      expect(refused.body.error.message).toMatch(/Only a generated challenge/);
      expect(JSON.stringify(refused.body)).not.toContain(body.flag);
    }
    const pending = expectStatus(await api.generate(ctf.id, { category: "crypto", difficulty: "easy" }), 202);
    const early = await reveal(trainer.secret, ctf.id, pending.id);
    expect(early.status).toBe(409);
    expect(early.body.error.message).toMatch(/generating/);
  });

  it("never shows the flag or the solution in any other answer, before or after a reveal", async () => {
    const trainer = await createTrainer(database.db);
    const api = client(trainer.secret);
    const ctfId = await runningCtf(database.db, trainer);
    const challengeId = await publishedGenerated(database.db, trainer, ctfId, "cookie-jar", "hard");
    const { flag, solution } = expectStatus(await reveal(trainer.secret, ctfId, challengeId), 200);
    const player = await playerOf(database.db, trainer, ctfId);
    const params = { ctf_id: ctfId, challenge_id: challengeId };
    const reads = [
      await api.getChallenge(ctfId, challengeId),
      await api.listChallenges(ctfId, { per_page: 100 }),
      await api.getCtf(ctfId),
      await api.listCtfs(),
      await call(scoreboardRoute.GET, `/api/v1/ctfs/${ctfId}/scoreboard`, { key: trainer.secret, params: { ctf_id: ctfId } }),
      await call(artifactRoute.GET, `/api/c/${ctfId}/challenges/${challengeId}/artifact`, { params, headers: { cookie: player.cookie } }),
      await call(targetRoute.GET, `/api/c/${ctfId}/challenges/${challengeId}/target/index`, { params: { ...params, page: "index" }, headers: { cookie: player.cookie } }),
      { status: 200, body: await publicCompetition(database.db, ctfId) },
    ];
    for (const read of reads) {
      expect(read.status).toBe(200);
      const text = JSON.stringify(read.body);
      expect(text).not.toContain(flag.slice(4, -1));
      for (const step of solution) expect(text).not.toContain(step);
    }
    // The stored target state holds no flag either: the host hands it to the template per request.
    const [artifact] = await database.db.select().from(challengeArtifacts).where(eq(challengeArtifacts.challengeId, challengeId));
    expect(JSON.stringify(artifact.target)).not.toContain(flag.slice(4, -1));
  });
});

describe("a generated challenge's flag and artifact", () => {
  it("keeps the flag built into the artifact (a new flag → 409), lets the rest change, and goes with the challenge", async () => {
    const trainer = await createTrainer(database.db);
    const api = client(trainer.secret);
    const { ctfId, challengeId } = await draftGenerated(trainer, "caesars-diary");
    const refused = await api.updateChallenge(ctfId, challengeId, { flag: "CTF{mine}" });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(/built into its artifact/);
    expect(expectStatus(await api.updateChallenge(ctfId, challengeId, { points: 123, title: "Dear Diary" }), 200)).toMatchObject({ points: 123, title: "Dear Diary", template: "caesars-diary" });
    expect(expectStatus(await reveal(trainer.secret, ctfId, challengeId), 200).flag).toMatch(FLAG);
    expectStatus(await api.deleteChallenge(ctfId, challengeId), 200);
    expect(await database.db.select().from(challengeArtifacts).where(eq(challengeArtifacts.challengeId, challengeId))).toEqual([]);
  });

  it("generates the template asked for; one of another category is a 422 on template", async () => {
    const trainer = await createTrainer(database.db);
    const api = client(trainer.secret);
    const ctf = expectStatus(await api.createCtf(ctfInput()), 201);
    const wrong = await api.generate(ctf.id, { category: "web", difficulty: "easy", template: "layers" });
    expect(wrong.status).toBe(422);
    expect(wrong.body.error.fields).toEqual([{ field: "template", message: expect.stringContaining("cookie-jar") }]);
    expect((await api.generate(ctf.id, { category: "web", difficulty: "easy", template: "nope" })).status).toBe(422);
    const pending = expectStatus(await api.generate(ctf.id, { category: "forensics", difficulty: "hard", template: "layers" }), 202);
    await completeGeneration(database.db, pending.id, "layers");
    expect(expectStatus(await api.getChallenge(ctf.id, pending.id), 200)).toMatchObject({ title: "Layers", template: "layers", status: "draft", points: 500 });
  });
});

describe("the players' artifact routes", () => {
  const paths = (ctfId: string, challengeId: string) => {
    const params = { ctf_id: ctfId, challenge_id: challengeId };
    const base = `/api/c/${ctfId}/challenges/${challengeId}`;
    return {
      artifact: (cookie?: string) => call(artifactRoute.GET, `${base}/artifact`, { params, headers: cookie ? { cookie } : {} }),
      file: (cookie?: string) => call(artifactFileRoute.GET, `${base}/artifact/file`, { params, headers: cookie ? { cookie } : {} }),
      target: (cookie?: string, page = "index") => call(targetRoute.GET, `${base}/target/${page}`, { params: { ...params, page }, headers: cookie ? { cookie } : {} }),
    };
  };

  it("serve a joined player only (401 without the cookie), a published challenge of their competition only (404)", async () => {
    const trainer = await createTrainer(database.db);
    const ctfId = await runningCtf(database.db, trainer);
    const challengeId = await publishedGenerated(database.db, trainer, ctfId, "holiday-snap");
    const player = await playerOf(database.db, trainer, ctfId);
    const routes = paths(ctfId, challengeId);
    for (const request of [routes.artifact, routes.file, routes.target]) {
      expect((await request()).status).toBe(401);
      expect((await request(player.cookie)).status).toBe(200);
    }
    expect((await routes.target(player.cookie, "nope")).status).toBe(404);
    expect((await routes.target(player.cookie, "../../etc")).status).toBe(404);
    // A draft of the same competition is not served.
    const draft = await generatedChallenge(database.db, trainer, ctfId, "layers");
    const drafts = paths(ctfId, draft);
    for (const request of [drafts.artifact, drafts.file, drafts.target]) {
      const answer = await request(player.cookie);
      expect(answer.status).toBe(404);
      expect(answer.body.error.message).toBe("Challenge not found.");
    }
    // Another competition's challenge through this competition's path: 404.
    const other = await runningCtf(database.db, trainer);
    const foreign = paths(ctfId, await publishedGenerated(database.db, trainer, other, "layers"));
    expect((await foreign.artifact(player.cookie)).status).toBe(404);
  });

  it("answer 409 before the start and from the end, like challenge content", async () => {
    const trainer = await createTrainer(database.db);
    const ctfId = await runningCtf(database.db, trainer);
    const challengeId = await publishedGenerated(database.db, trainer, ctfId, "overflow-101");
    const player = await playerOf(database.db, trainer, ctfId);
    const routes = paths(ctfId, challengeId);
    await database.db.update(ctfs).set({ startsAt: new Date(Date.now() + HOUR), endsAt: new Date(Date.now() + 2 * HOUR) }).where(eq(ctfs.id, ctfId));
    for (const request of [routes.artifact, routes.file, routes.target]) {
      const early = await request(player.cookie);
      expect(early.status).toBe(409);
      expect(early.body.error.message).toMatch(/starts at/);
    }
    await database.db.update(ctfs).set({ startsAt: new Date(Date.now() - 2 * HOUR), endsAt: new Date(Date.now() - HOUR) }).where(eq(ctfs.id, ctfId));
    for (const request of [routes.artifact, routes.file, routes.target]) expect((await request(player.cookie)).body.error.message).toMatch(/ended at/);
  });

  it("have nothing for a challenge written by hand: no file, no target", async () => {
    const trainer = await createTrainer(database.db);
    const ctfId = await runningCtf(database.db, trainer);
    const challengeId = await publishedChallenge(database.db, trainer, ctfId);
    const player = await playerOf(database.db, trainer, ctfId);
    const routes = paths(ctfId, challengeId);
    expect(expectStatus(await routes.artifact(player.cookie), 200)).toEqual({ challenge_id: challengeId, file: null, target: null });
    expect((await routes.file(player.cookie)).body.error.message).toBe("File not found.");
    expect((await routes.target(player.cookie)).body.error.message).toBe("Target not found.");
    const [row] = await database.db.select({ template: challenges.template }).from(challenges).where(eq(challenges.id, challengeId));
    expect(row.template).toBeNull();
  });
});
