import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import * as publicScoreboardRoute from "@/app/api/c/[ctf_id]/scoreboard/route";
import * as archiveRoute from "@/app/api/v1/ctfs/[ctf_id]/archive/route";
import * as ctftimeRoute from "@/app/api/v1/ctfs/[ctf_id]/scoreboard/ctftime/route";
import * as hintUnlocksRoute from "@/app/api/v1/ctfs/[ctf_id]/hint-unlocks/route";
import * as scoreboardRoute from "@/app/api/v1/ctfs/[ctf_id]/scoreboard/route";
import { ctfs, flagAttempts, members, solves } from "@/db/schema";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { createTrainer, type Trainer } from "../../helpers/fixtures";
import { call } from "../../helpers/http";
import { playerOf, publishedChallenge, runningCtf } from "../../helpers/samples/play";
import { expectStatus, playableCompetition, sameOrigin, submitFlagAs, unlockHintAs } from "../../helpers/competition";

/**
 * Playing a competition through its routes: a player's cookie, flags (correct, incorrect,
 * already solved, throttled, outside the window), hints, the scoreboard and the archive.
 */

let database: TestDatabase;
let trainer: Trainer;
const HOUR = 3_600_000;

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

const scoreboard = (ctfId: string) => call(scoreboardRoute.GET, `/api/v1/ctfs/${ctfId}/scoreboard`, { key: trainer.secret, params: { ctf_id: ctfId } });

const game = () => playableCompetition(database.db, trainer);

describe("flags", () => {
  it("answers incorrect, correct (the points, the score), then already_solved; records every attempt, never a correct flag's text", async () => {
    const { ctfId, challengeId } = await game();
    const ann = await playerOf(database.db, trainer, ctfId, "ann@example.com");
    expect(expectStatus(await submitFlagAs(ann.cookie, ctfId, challengeId, "CTF{nope}"), 200)).toEqual({ status: "incorrect", points: 0, score: 0 });
    expect(expectStatus(await submitFlagAs(ann.cookie, ctfId, challengeId, "  CTF{warm} "), 200)).toEqual({ status: "correct", points: 100, score: 100 });
    expect(expectStatus(await submitFlagAs(ann.cookie, ctfId, challengeId, "CTF{warm}"), 200)).toEqual({ status: "already_solved", points: 0, score: 100 });
    const recorded = await database.db.select().from(flagAttempts).where(eq(flagAttempts.memberId, ann.memberId)).orderBy(flagAttempts.createdAt, flagAttempts.id);
    expect(recorded.map((a) => [a.result, a.submitted])).toEqual([
      ["incorrect", "CTF{nope}"],
      ["correct", null],
      ["already_solved", null],
    ]);
  });

  it("throttles: the 11th submission within a minute is 429 with Retry-After, even the right flag, and is not recorded", async () => {
    const { ctfId, challengeId } = await game();
    const bob = await playerOf(database.db, trainer, ctfId);
    for (let i = 0; i < 10; i++) expect(expectStatus(await submitFlagAs(bob.cookie, ctfId, challengeId, `CTF{guess-${i}}`), 200).status).toBe("incorrect");
    for (const flag of ["CTF{guess-10}", "CTF{warm}"]) {
      const refused = await submitFlagAs(bob.cookie, ctfId, challengeId, flag);
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe("rate_limit_exceeded");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(refused.body.error.retry_after).toBe(Number(refused.headers.get("retry-after")));
    }
    const [{ n }] = await database.db.select({ n: count() }).from(flagAttempts).where(eq(flagAttempts.memberId, bob.memberId));
    expect(n).toBe(10);
    // Per challenge: another challenge of the same competition is not throttled.
    const other = await publishedChallenge(database.db, trainer, ctfId, { title: "Second", flag: "CTF{two}" });
    expect(expectStatus(await submitFlagAs(bob.cookie, ctfId, other, "CTF{two}"), 200).status).toBe("correct");
  });

  it("refuses before the start and after the end (409 with the time)", async () => {
    const { ctfId: soon, challengeId: soonChallenge } = await playableCompetition(database.db, trainer, { window: { startsAt: new Date(Date.now() + HOUR), endsAt: new Date(Date.now() + 2 * HOUR) } });
    const early = await submitFlagAs((await playerOf(database.db, trainer, soon)).cookie, soon, soonChallenge, "CTF{warm}");
    expect(early.status).toBe(409);
    expect(early.body.error.message).toMatch(/starts at \d{4}-\d\d-\d\dT/);

    const { ctfId, challengeId } = await game();
    const late = await playerOf(database.db, trainer, ctfId);
    await database.db.update(ctfs).set({ endsAt: new Date(Date.now() - 1000) }).where(eq(ctfs.id, ctfId));
    const after = await submitFlagAs(late.cookie, ctfId, challengeId, "CTF{warm}");
    expect(after.status).toBe(409);
    expect(after.body.error.message).toMatch(/ended at/);
    expect(await database.db.select().from(flagAttempts).where(eq(flagAttempts.memberId, late.memberId))).toEqual([]);
  });

  it("answers 401 without a player cookie or with another competition's, 404 for another competition's challenge", async () => {
    const one = await game();
    const two = await game();
    const player = await playerOf(database.db, trainer, one.ctfId);
    expect((await submitFlagAs(undefined, one.ctfId, one.challengeId, "CTF{warm}")).status).toBe(401);
    expect((await submitFlagAs(player.cookie, two.ctfId, two.challengeId, "CTF{warm}")).status).toBe(401);
    const foreign = await submitFlagAs(player.cookie, one.ctfId, two.challengeId, "CTF{warm}");
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.message).toBe("Challenge not found.");
  });

  it("an invited member who has not accepted is no player", async () => {
    const { ctfId, challengeId } = await game();
    const player = await playerOf(database.db, trainer, ctfId);
    await database.db.update(members).set({ status: "invited" }).where(eq(members.id, player.memberId));
    expect((await submitFlagAs(player.cookie, ctfId, challengeId, "CTF{warm}")).status).toBe(401);
  });

  it("makes one solve of concurrent correct submissions; the others answer already_solved", async () => {
    const { ctfId, challengeId } = await game();
    const player = await playerOf(database.db, trainer, ctfId);
    const results = await Promise.all(Array.from({ length: 6 }, () => submitFlagAs(player.cookie, ctfId, challengeId, "CTF{warm}")));
    expect(results.map((r) => r.status)).toEqual(Array(6).fill(200));
    expect(results.map((r) => r.body.status).sort()).toEqual(["already_solved", "already_solved", "already_solved", "already_solved", "already_solved", "correct"]);
    expect(results.every((r) => r.body.score === 100)).toBe(true);
    const [{ n }] = await database.db.select({ n: count() }).from(solves).where(and(eq(solves.memberId, player.memberId), eq(solves.challengeId, challengeId)));
    expect(n).toBe(1);
  });
});

describe("hints", () => {
  it("serves a hint's text only on unlock, and deducts its cost once", async () => {
    const { ctfId, challengeId } = await game();
    const player = await playerOf(database.db, trainer, ctfId);
    expect(expectStatus(await unlockHintAs(player.cookie, ctfId, challengeId, 1), 200)).toEqual({ challenge_id: challengeId, hint: 1, text: "Look at the page source.", cost: 10, score: -10 });
    expect(expectStatus(await unlockHintAs(player.cookie, ctfId, challengeId, 1), 200).score).toBe(-10);
    expect(expectStatus(await unlockHintAs(player.cookie, ctfId, challengeId, 2), 200)).toMatchObject({ text: "It is in a comment.", cost: 0, score: -10 });
    expect((await unlockHintAs(player.cookie, ctfId, challengeId, 3)).status).toBe(404);
    expect(expectStatus(await submitFlagAs(player.cookie, ctfId, challengeId, "CTF{warm}"), 200)).toEqual({ status: "correct", points: 100, score: 90 });
    // The API never serves hint texts to integrators' reads of the scoreboard.
    expect(JSON.stringify((await scoreboard(ctfId)).body)).not.toContain("page source");
  });

  it("shows the organiser who unlocked which hint, newest first, paginated; another workspace gets 404", async () => {
    const { ctfId, challengeId } = await game();
    const ann = await playerOf(database.db, trainer, ctfId, "ann@example.com", "Ann");
    const bob = await playerOf(database.db, trainer, ctfId, "bob@example.com");
    await unlockHintAs(ann.cookie, ctfId, challengeId, 1);
    await unlockHintAs(bob.cookie, ctfId, challengeId, 2);
    await unlockHintAs(ann.cookie, ctfId, challengeId, 1); // again: no second record
    const unlocks = (query?: Record<string, number>, key = trainer.secret) =>
      call(hintUnlocksRoute.GET, `/api/v1/ctfs/${ctfId}/hint-unlocks`, { key, params: { ctf_id: ctfId }, query });
    const all = expectStatus(await unlocks(), 200);
    expect(all.pagination).toEqual({ page: 1, per_page: 25, total: 2 });
    expect(all.data).toEqual([
      { member_id: bob.memberId, name: "bob", challenge_id: challengeId, hint: 2, cost: 0, unlocked_at: expect.stringMatching(/Z$/) },
      { member_id: ann.memberId, name: "Ann", challenge_id: challengeId, hint: 1, cost: 10, unlocked_at: expect.stringMatching(/Z$/) },
    ]);
    expect(Date.parse(all.data[0].unlocked_at)).toBeGreaterThanOrEqual(Date.parse(all.data[1].unlocked_at));
    const second = expectStatus(await unlocks({ page: 2, per_page: 1 }), 200);
    expect(second.data.map((row: { member_id: string }) => row.member_id)).toEqual([ann.memberId]);
    expect((await unlocks(undefined, (await createTrainer(database.db)).secret)).status).toBe(404);
  });
});

describe("the scoreboard", () => {
  it("CTFtime's feed: tasks by title, standings in scoreboard order with taskStats and lastAccept in Unix seconds; 409 for a private competition", async () => {
    const { ctfId, challengeId } = await game();
    const second = await publishedChallenge(database.db, trainer, ctfId, { title: "Second", flag: "CTF{two}", points: 50, hints: [] });
    const ann = await playerOf(database.db, trainer, ctfId, "ann@example.com", "Ann");
    await playerOf(database.db, trainer, ctfId, "bob@example.com");
    await submitFlagAs(ann.cookie, ctfId, second, "CTF{two}");
    await submitFlagAs(ann.cookie, ctfId, challengeId, "CTF{warm}");
    const feed = (id: string) => call(ctftimeRoute.GET, `/api/v1/ctfs/${id}/scoreboard/ctftime`, { key: trainer.secret, params: { ctf_id: id } });
    const body = expectStatus(await feed(ctfId), 200);
    const solved = await database.db.select().from(solves).where(eq(solves.memberId, ann.memberId));
    const at = (id: string) => Math.floor(solved.find((row) => row.challengeId === id)!.solvedAt.getTime() / 1000);
    expect(body).toEqual({
      tasks: ["Warm-up", "Second"],
      standings: [
        { pos: 1, team: "Ann", score: 150, taskStats: { "Warm-up": { points: 100, time: at(challengeId) }, Second: { points: 50, time: at(second) } }, lastAccept: at(challengeId) },
        { pos: 2, team: "bob", score: 0, taskStats: {}, lastAccept: 0 },
      ],
    });
    expect(Math.abs(body.standings[0].lastAccept - Date.now() / 1000)).toBeLessThan(60);

    await database.db.update(ctfs).set({ isPublic: false }).where(eq(ctfs.id, ctfId));
    const refused = await feed(ctfId);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("conflict");
  });

  it("ranks by score, ties to who reached it first, hint costs deducted; names, never addresses", async () => {
    const { ctfId, challengeId } = await game();
    const second = await publishedChallenge(database.db, trainer, ctfId, { title: "Second", flag: "CTF{two}", points: 50, hints: [] });
    const ann = await playerOf(database.db, trainer, ctfId, "ann@example.com");
    const bob = await playerOf(database.db, trainer, ctfId, "bob@example.com", "Bobby");
    const cat = await playerOf(database.db, trainer, ctfId, "cat@example.com");
    const dan = await playerOf(database.db, trainer, ctfId, "dan@example.com");
    // Bob reaches 150 first, Ann second; Cat scores 100 - 10 = 90; Dan does nothing.
    await submitFlagAs(bob.cookie, ctfId, challengeId, "CTF{warm}");
    await submitFlagAs(bob.cookie, ctfId, second, "CTF{two}");
    await submitFlagAs(ann.cookie, ctfId, second, "CTF{two}");
    await new Promise((resolve) => setTimeout(resolve, 5));
    await submitFlagAs(ann.cookie, ctfId, challengeId, "CTF{warm}");
    await unlockHintAs(cat.cookie, ctfId, challengeId, 1);
    await submitFlagAs(cat.cookie, ctfId, challengeId, "CTF{warm}");

    const board = expectStatus(await scoreboard(ctfId), 200);
    expect(board.pagination).toEqual({ page: 1, per_page: 25, total: 4 });
    expect(board.data.map((e: any) => [e.pos, e.name, e.score, e.solves])).toEqual([
      [1, "Bobby", 150, 2],
      [2, "ann", 150, 2],
      [3, "cat", 90, 1],
      [4, "dan", 0, 0],
    ]);
    expect(board.data[0]).toEqual({ pos: 1, member_id: bob.memberId, team_id: null, name: "Bobby", score: 150, solves: 2, last_solve_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/), first_blood: [challengeId, second] });
    expect(board.data[3].last_solve_at).toBeNull();
    expect(JSON.stringify(board)).not.toContain("@example.com");
    expect(dan.memberId).toBe(board.data[3].member_id);

    // The public page's route answers the same, without credentials.
    const shown = await call(publicScoreboardRoute.GET, `/api/c/${ctfId}/scoreboard`, { params: { ctf_id: ctfId } });
    expect(expectStatus(shown, 200).data).toEqual(board.data);
    // Another workspace's key: 404.
    const stranger = await createTrainer(database.db);
    expect((await call(scoreboardRoute.GET, `/api/v1/ctfs/${ctfId}/scoreboard`, { key: stranger.secret, params: { ctf_id: ctfId } })).status).toBe(404);
  });

  it("is kept in the archive snapshot, with the solves and attempt counts, and writes members.score", async () => {
    const { ctfId, challengeId } = await game();
    const ann = await playerOf(database.db, trainer, ctfId, "ann@example.com");
    const bob = await playerOf(database.db, trainer, ctfId, "bob@example.com");
    await submitFlagAs(ann.cookie, ctfId, challengeId, "CTF{no}");
    await submitFlagAs(ann.cookie, ctfId, challengeId, "CTF{warm}");
    await unlockHintAs(bob.cookie, ctfId, challengeId, 1);
    expectStatus(await call(archiveRoute.POST, `/api/v1/ctfs/${ctfId}/archive`, { method: "POST", key: trainer.secret, params: { ctf_id: ctfId } }), 200);

    const [ctf] = await database.db.select().from(ctfs).where(eq(ctfs.id, ctfId));
    expect(ctf.snapshot!.scores.map((s) => [s.pos, s.member_id, s.name, s.score])).toEqual([
      [1, ann.memberId, "ann", 100],
      [2, bob.memberId, "bob", -10],
    ]);
    expect(ctf.snapshot!.solves).toEqual([{ member_id: ann.memberId, team_id: null, challenge_id: challengeId, points: 100, solved_at: expect.any(String), first_blood: true }]);
    expect(ctf.snapshot!.attempts).toEqual([{ challenge_id: challengeId, attempts: 2, correct: 1 }]);
    expect(ctf.snapshot!.members.find((m) => m.member_id === ann.memberId)?.score).toBe(100);
    const scores = await database.db.select({ id: members.id, score: members.score }).from(members).where(eq(members.ctfId, ctfId));
    expect(Object.fromEntries(scores.map((m) => [m.id, m.score]))).toEqual({ [ann.memberId]: 100, [bob.memberId]: -10 });
    // Archived: no more play.
    expect((await submitFlagAs(bob.cookie, ctfId, challengeId, "CTF{warm}")).status).toBe(409);
  });
});

describe("send me my link again", () => {
  it("mails a member their own link, nobody else, within the public mail limits; the answer is always the same", async () => {
    const linkRoute = await import("@/app/api/c/[ctf_id]/link/route");
    const { emailMessages } = await import("@/db/schema");
    const ctfId = await runningCtf(database.db, trainer);
    await playerOf(database.db, trainer, ctfId, "eve@example.com");
    const ask = (email: string) =>
      call(linkRoute.POST, `/api/c/${ctfId}/link`, { method: "POST", params: { ctf_id: ctfId }, body: { email }, headers: { ...sameOrigin, "x-forwarded-for": "203.0.113.9" } });
    const links = async () => (await database.db.select().from(emailMessages).where(eq(emailMessages.kind, "player_link"))).filter((m) => m.to === "eve@example.com");

    const answers = [await ask("eve@example.com"), await ask("nobody@example.com")];
    expect(answers.map((a) => a.status)).toEqual([202, 202]);
    expect(answers[1].body.message).toBe(answers[0].body.message.replace("eve@example.com", "nobody@example.com"));
    expect(await links()).toHaveLength(1);
    // 3 public mails per address per hour: two more, then nothing, still 202.
    expect((await ask("eve@example.com")).status).toBe(202);
    expect((await ask("eve@example.com")).status).toBe(202);
    expect(await links()).toHaveLength(3);
    expect((await ask("eve@example.com")).status).toBe(202);
    expect(await links()).toHaveLength(3);
    expect((await links())[0].links[0]).toMatch(/\/c\/join\/[A-Za-z0-9_-]+$/);
  });
});
