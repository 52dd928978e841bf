import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import * as attemptsRoute from "@/app/api/c/[ctf_id]/challenges/[challenge_id]/attempts/route";
import * as publicScoreboardRoute from "@/app/api/c/[ctf_id]/scoreboard/route";
import * as ctftimeRoute from "@/app/api/v1/ctfs/[ctf_id]/scoreboard/ctftime/route";
import * as scoreboardRoute from "@/app/api/v1/ctfs/[ctf_id]/scoreboard/route";
import { ctfs, members } from "@/db/schema";
import { completePublish, publishChallenge } from "@/lib/ctf/challenges/challenges";
import { completeCtfDeploy, deployCtf } from "@/lib/ctf/competitions/competitions";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { startFakeCtfd, type FakeCtfd } from "../../helpers/fake-ctfd";
import { createTrainer, type Trainer } from "../../helpers/fixtures";
import { call } from "../../helpers/http";
import { playerOf } from "../../helpers/samples/play";
import { challengeInput, client, ctfInput, expectStatus, ISO_UTC, type Client } from "../../helpers/competition";

/**
 * On the CTFd host the scoreboard and the archive read CTFd's own API (`/api/v1/scoreboard`,
 * each challenge's solves, the users' addresses, the submissions' counts), here through the
 * local fake: CTFd's accounts are matched to members by address, unknown ones have
 * `member_id` null. Also: each flag mode reaches CTFd as the flag type CTFd checks the same way.
 */

let database: TestDatabase;
let ctfd: FakeCtfd;
let trainer: Trainer;
let api: Client;
const origin = { origin: "http://localhost", "x-forwarded-host": "localhost" };
const HOUR = 3_600_000;

beforeAll(async () => {
  ctfd = await startFakeCtfd();
  vi.stubEnv("CTFD_URL", ctfd.url);
  vi.stubEnv("CTFD_TOKEN", ctfd.token);
  database = await createTestDatabase();
});
beforeEach(async () => {
  trainer = await createTrainer(database.db);
  api = client(trainer.secret);
});
afterAll(async () => {
  await database?.drop();
  await ctfd?.close();
  vi.unstubAllEnvs();
});

/** A deployed CTFd competition that runs now. */
async function ctfdCompetition(overrides: Record<string, unknown> = {}) {
  const created = expectStatus(
    await api.createCtf(ctfInput({ title: "CTFd Cup", starts_at: new Date(Date.now() - HOUR).toISOString(), ends_at: new Date(Date.now() + 24 * HOUR).toISOString(), is_public: true, ...overrides })),
    201,
  );
  expect(created.host).toBe("ctfd");
  await deployCtf(database.db, trainer.workspaceId, created.id);
  await completeCtfDeploy(database.db, created.id);
  const [ctf] = await database.db.select().from(ctfs).where(eq(ctfs.id, created.id));
  expect([ctf.status, ctf.lastError]).toEqual(["deployed", null]);
  return created.id as string;
}

/** A challenge created through the API and published to the fake CTFd: ours and CTFd's ids. */
async function published(ctfId: string, overrides: Record<string, unknown>) {
  const created = expectStatus(await api.createChallenge(ctfId, challengeInput(overrides)), 201);
  await publishChallenge(database.db, trainer.workspaceId, ctfId, created.id);
  await completePublish(database.db, created.id);
  const view = expectStatus(await api.getChallenge(ctfId, created.id), 200);
  expect(view.status).toBe("published");
  return { id: created.id as string, platformId: view.platform_challenge_id as number };
}

const scoreboard = (ctfId: string, query?: Record<string, number>, key = trainer.secret) =>
  call(scoreboardRoute.GET, `/api/v1/ctfs/${ctfId}/scoreboard`, { key, params: { ctf_id: ctfId }, query });
const publicBoard = (ctfId: string) => call(publicScoreboardRoute.GET, `/api/c/${ctfId}/scoreboard`, { params: { ctf_id: ctfId } });

describe("flag modes reach CTFd as the flag type CTFd checks the same way", () => {
  it.each([
    ["exact", "CTF{Warm_Up}", { type: "static", data: "" }, ["ctf{warm_up}", "CTF{Warm_Up}x"], "CTF{Warm_Up}"],
    ["case_insensitive", "CTF{Warm_Up}", { type: "static", data: "case_insensitive" }, ["CTF{Cold}"], "ctf{WARM_UP}"],
    ["regex", "CTF\\{[a-z]+_[0-9]{3}\\}", { type: "regex", data: "" }, ["CTF{abc_12}", "xCTF{abc_123}", "CTF{abc_123}x", "CTF{ABC_123}"], "CTF{abc_123}"],
  ])("%s → CTFd flag %j; CTFd refuses the wrong ones and takes the right one", async (mode, flag, kind, wrong, right) => {
    const ctfId = await ctfdCompetition();
    const challenge = await published(ctfId, { title: `Mode ${mode}`, flag, flag_mode: mode, hints: [] });
    const sent = ctfd.flags.filter((f) => f.challenge_id === challenge.platformId);
    // The flag travels as given (the sealed copy, not the lower-cased hash's input).
    expect(sent).toEqual([{ id: expect.any(Number), challenge_id: challenge.platformId, content: flag, ...kind }]);
    const user = ctfd.addUser({ name: `checker-${mode}`, email: `checker-${mode}@example.com` });
    for (const attempt of wrong) expect([attempt, ctfd.attempt(user.id, challenge.platformId, attempt)]).toEqual([attempt, "incorrect"]);
    expect(ctfd.attempt(user.id, challenge.platformId, right)).toBe("correct");
    // One CTFd instance is every CTFd competition's: the checker leaves the scoreboard of the next tests.
    user.hidden = true;
  });
});

describe("the scoreboard of a CTFd-hosted competition", () => {
  it("is CTFd's: positions, names and scores from /api/v1/scoreboard (hint costs included), solves from this competition's challenges, accounts matched to members by address", async () => {
    const ctfId = await ctfdCompetition();
    const web = await published(ctfId, { title: "Cookie Jar", points: 150, flag: "CTF{jar}", hints: [{ text: "Set-Cookie.", cost: 30 }] });
    const crypto = await published(ctfId, { title: "Rot Thirteen", category: "crypto", points: 50, flag: "CTF{rot}", hints: [] });
    // A challenge of the instance that is not this competition's: it scores on CTFd, but is not a solve here.
    const elsewhere = ctfd.challenges.push({ id: 9000 + ctfd.challenges.length, name: "Elsewhere", category: "misc", description: "", value: 10, type: "standard", state: "visible" });
    const elsewhereId = ctfd.challenges[elsewhere - 1].id;

    await api.invite(ctfId, "ann@example.com");
    await api.invite(ctfId, "bob@example.com");
    const [ann, bob] = await database.db.select().from(members).where(eq(members.ctfId, ctfId)).orderBy(members.email);
    const start = Date.now() - HOUR;
    const t = (minutes: number) => new Date(start + minutes * 60_000);
    const annOnCtfd = ctfd.addUser({ name: "ann_the_hacker", email: "Ann@Example.COM" });
    const bobOnCtfd = ctfd.addUser({ name: "bobby", email: "bob@example.com" });
    const zed = ctfd.addUser({ name: "zed", email: "zed@example.com" });
    const hidden = ctfd.addUser({ name: "admin", email: "admin@example.com", hidden: true });

    expect(ctfd.attempt(annOnCtfd.id, web.platformId, "CTF{nope}", t(1))).toBe("incorrect");
    expect(ctfd.attempt(annOnCtfd.id, web.platformId, "CTF{jar}", t(2))).toBe("correct");
    expect(ctfd.attempt(annOnCtfd.id, crypto.platformId, "CTF{rot}", t(3))).toBe("correct");
    ctfd.unlockHint(bobOnCtfd.id, ctfd.hints.find((h) => h.challenge_id === web.platformId)!.id, t(4));
    expect(ctfd.attempt(bobOnCtfd.id, web.platformId, "CTF{jar}", t(5))).toBe("correct");
    ctfd.flags.push({ id: 9999, challenge_id: elsewhereId, type: "static", content: "CTF{else}", data: "" });
    expect(ctfd.attempt(zed.id, elsewhereId, "CTF{else}", t(6))).toBe("correct");
    expect(ctfd.attempt(hidden.id, web.platformId, "CTF{jar}", t(7))).toBe("correct");

    ctfd.calls.length = 0;
    const board = expectStatus(await scoreboard(ctfId), 200);
    expect(board).toEqual({
      data: [
        { pos: 1, member_id: ann.id, team_id: null, platform_account_id: annOnCtfd.id, name: "ann_the_hacker", score: 200, solves: 2, last_solve_at: t(3).toISOString(), first_blood: [web.id, crypto.id] },
        { pos: 2, member_id: bob.id, team_id: null, platform_account_id: bobOnCtfd.id, name: "bobby", score: 120, solves: 1, last_solve_at: t(5).toISOString(), first_blood: [] },
        { pos: 3, member_id: null, team_id: null, platform_account_id: zed.id, name: "zed", score: 10, solves: 0, last_solve_at: null, first_blood: [] },
      ],
      pagination: { page: 1, per_page: 25, total: 3 },
    });
    expect(board.data[0].last_solve_at).toMatch(ISO_UTC);
    expect(JSON.stringify(board)).not.toMatch(/@example/i);
    // Read from CTFd with the token: the scoreboard, each of this competition's challenges' solves, the accounts.
    expect(ctfd.callsTo("GET", "/api/v1/scoreboard")).toHaveLength(1);
    expect(ctfd.callsTo("GET", /^\/api\/v1\/challenges\/\d+\/solves$/).map((c) => c.path).sort()).toEqual(
      [`/api/v1/challenges/${web.platformId}/solves`, `/api/v1/challenges/${crypto.platformId}/solves`].sort(),
    );
    expect(ctfd.calls.every((c) => c.authorization === `Token ${ctfd.token}`)).toBe(true);

    const second = expectStatus(await scoreboard(ctfId, { page: 2, per_page: 1 }), 200);
    expect(second).toEqual({ data: [board.data[1]], pagination: { page: 2, per_page: 1, total: 3 } });
    // The public page's route answers the same (names only).
    expect(expectStatus(await publicBoard(ctfId), 200).data).toEqual(board.data);
    // Another workspace: 404.
    expect((await scoreboard(ctfId, undefined, (await createTrainer(database.db)).secret)).status).toBe(404);

    // CTFtime's feed is built from the same standings.
    const feed = expectStatus(await call(ctftimeRoute.GET, `/api/v1/ctfs/${ctfId}/scoreboard/ctftime`, { key: trainer.secret, params: { ctf_id: ctfId } }), 200);
    const secs = (minutes: number) => Math.floor(t(minutes).getTime() / 1000);
    expect(feed).toEqual({
      tasks: ["Cookie Jar", "Rot Thirteen"],
      standings: [
        { pos: 1, team: "ann_the_hacker", score: 200, taskStats: { "Cookie Jar": { points: 150, time: secs(2) }, "Rot Thirteen": { points: 50, time: secs(3) } }, lastAccept: secs(3) },
        { pos: 2, team: "bobby", score: 120, taskStats: { "Cookie Jar": { points: 150, time: secs(5) } }, lastAccept: secs(5) },
        { pos: 3, team: "zed", score: 10, taskStats: {}, lastAccept: 0 },
      ],
    });

    // Archiving keeps CTFd's final standings, solves and attempt counts; members' scores are written.
    expectStatus(await api.archive(ctfId), 200);
    const [archived] = await database.db.select().from(ctfs).where(eq(ctfs.id, ctfId));
    expect(archived.snapshot!.scores).toEqual([
      { pos: 1, member_id: ann.id, team_id: null, platform_account_id: annOnCtfd.id, name: "ann_the_hacker", email: "ann@example.com", score: 200, solves: 2, last_solve_at: t(3).toISOString(), first_blood: [web.id, crypto.id] },
      { pos: 2, member_id: bob.id, team_id: null, platform_account_id: bobOnCtfd.id, name: "bobby", email: "bob@example.com", score: 120, solves: 1, last_solve_at: t(5).toISOString(), first_blood: [] },
      { pos: 3, member_id: null, team_id: null, platform_account_id: zed.id, name: "zed", email: "zed@example.com", score: 10, solves: 0, last_solve_at: null, first_blood: [] },
    ]);
    expect(archived.snapshot!.solves).toEqual([
      { member_id: ann.id, team_id: null, platform_account_id: annOnCtfd.id, challenge_id: web.id, points: 150, solved_at: t(2).toISOString(), first_blood: true },
      { member_id: ann.id, team_id: null, platform_account_id: annOnCtfd.id, challenge_id: crypto.id, points: 50, solved_at: t(3).toISOString(), first_blood: true },
      { member_id: bob.id, team_id: null, platform_account_id: bobOnCtfd.id, challenge_id: web.id, points: 150, solved_at: t(5).toISOString(), first_blood: false },
    ]);
    // Counts only: the hidden admin's submission counts on CTFd too.
    expect(archived.snapshot!.attempts!.sort((a, b) => a.challenge_id.localeCompare(b.challenge_id))).toEqual(
      [
        { challenge_id: web.id, attempts: 4, correct: 3 },
        { challenge_id: crypto.id, attempts: 1, correct: 1 },
      ].sort((a, b) => a.challenge_id.localeCompare(b.challenge_id)),
    );
    const scores = await database.db.select({ id: members.id, score: members.score }).from(members).where(eq(members.ctfId, ctfId));
    expect(Object.fromEntries(scores.map((m) => [m.id, m.score]))).toEqual({ [ann.id]: 200, [bob.id]: 120 });
    expect(archived.snapshot!.members.find((m) => m.member_id === ann.id)?.score).toBe(200);

    // Archived: the scoreboard is the snapshot's, even with CTFd gone.
    await ctfd.setMode("down");
    try {
      expect(expectStatus(await scoreboard(ctfId), 200).data).toEqual(board.data);
      expect(expectStatus(await publicBoard(ctfId), 200).data).toEqual(board.data);
    } finally {
      await ctfd.setMode("ok");
    }
  });

  it("CTFd down or failing: the scoreboard is a 503 naming CTFd; archiving is a 503 and changes nothing", async () => {
    const ctfId = await ctfdCompetition({ title: "Outage Cup" });
    await published(ctfId, { title: "Down", flag: "CTF{down}", hints: [] });
    for (const mode of ["down", "error"] as const) {
      await ctfd.setMode(mode);
      try {
        const refused = await scoreboard(ctfId);
        expect(refused.status).toBe(503);
        expect(refused.body.error.code).toBe("service_unavailable");
        expect(refused.body.error.message).toMatch(/CTFd/);
        expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
        const archive = await api.archive(ctfId);
        expect(archive.status).toBe(503);
        const [still] = await database.db.select().from(ctfs).where(eq(ctfs.id, ctfId));
        expect([still.status, still.snapshot]).toEqual(["deployed", null]);
      } finally {
        await ctfd.setMode("ok");
      }
    }
    ctfd.failRoutes(["GET /api/v1/scoreboard"]);
    try {
      expect((await scoreboard(ctfId)).status).toBe(503);
    } finally {
      ctfd.failRoutes([]);
    }
    expect(expectStatus(await scoreboard(ctfId), 200).pagination.total).toBeGreaterThanOrEqual(0);
  });

  it("a challenge removed on CTFd (404 on its solves) leaves the others' standings readable", async () => {
    const ctfId = await ctfdCompetition({ title: "Removed Cup" });
    const kept = await published(ctfId, { title: "Kept", flag: "CTF{kept}", points: 70, hints: [] });
    const gone = await published(ctfId, { title: "Gone", flag: "CTF{gone}", hints: [] });
    const user = ctfd.addUser({ name: "keeper", email: "keeper@example.com" });
    ctfd.attempt(user.id, kept.platformId, "CTF{kept}");
    ctfd.challenges.find((c) => c.id === gone.platformId)!.deleted = true;
    const board = expectStatus(await scoreboard(ctfId), 200);
    expect(board.data.find((e: { name: string }) => e.name === "keeper")).toMatchObject({ member_id: null, solves: 1 });
  });

  it("players do not play a CTFd-hosted competition here: the attempts route answers 409", async () => {
    const ctfId = await ctfdCompetition({ title: "Elsewhere Cup" });
    const challenge = await published(ctfId, { title: "There", flag: "CTF{there}", hints: [] });
    const player = await playerOf(database.db, trainer, ctfId);
    const params = { ctf_id: ctfId, challenge_id: challenge.id };
    const refused = await call(attemptsRoute.POST, `/api/c/${ctfId}/challenges/${challenge.id}/attempts`, { method: "POST", params, body: { flag: "CTF{there}" }, headers: { ...origin, cookie: player.cookie } });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(/CTFd/);
  });
});
