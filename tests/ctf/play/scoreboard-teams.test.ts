import { createHash, randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { ctfs, hintUnlocks, members, solves, teams } from "@/db/schema";
import { challengeValue } from "@/lib/ctf/challenges/scoring";
import { newId } from "@/lib/kernel/ids";
import { playerScore } from "@/lib/ctf/play/scoreboard";
import { builtinHostWorld } from "../../helpers/builtin-host";
import { expectStatus, playableCompetition } from "../../helpers/competition";
import { playerOf, publishedChallenge } from "../../helpers/samples/play";
import { boards, standingsOf } from "./scoreboard-calls";

/**
 * A teams-mode competition ranks teams: every team of the competition by its shared solves
 * and hint costs, under the team's name — on the boards, CTFtime's feed, the graph and the
 * archive. The rows are written here as the play routes write them in teams mode (team_id
 * on solves and unlocks), so the ranking is tested on its own.
 */

const world = builtinHostWorld();

let api: ReturnType<typeof boards>;
const dynamic = { type: "dynamic" as const, initial: 200, minimum: 20, decay: 4 };
const MINUTE = 60_000;

beforeEach(() => {
  api = boards(world.trainer.secret);
});

async function team(ctfId: string, name: string, memberIds: string[]) {
  const id = newId("team");
  const code = randomBytes(12).toString("base64url");
  await world.database.db.insert(teams).values({ id, ctfId, workspaceId: world.trainer.workspaceId, name, inviteCodeHash: createHash("sha256").update(code).digest("hex"), inviteCodeSealed: "sealed" });
  for (const memberId of memberIds) await world.database.db.update(members).set({ teamId: id }).where(eq(members.id, memberId));
  return id;
}

const ago = (minutes: number) => new Date(Date.now() - minutes * MINUTE);

/** Three teams: Owls (Ann, Bob), Foxes (Cat), Idle (Dan, nothing solved); the warm-up and a dynamic challenge. */
async function teamsGame() {
  const { ctfId, challengeId: warmUp } = await playableCompetition(world.database.db, world.trainer);
  await world.database.db.update(ctfs).set({ mode: "teams" }).where(eq(ctfs.id, ctfId));
  const decaying = await publishedChallenge(world.database.db, world.trainer, ctfId, { title: "Decaying", flag: "CTF{decay}", points: 200, scoring: dynamic, hints: [] });
  const [ann, bob, cat, dan] = [await playerOf(world.database.db, world.trainer, ctfId, "ann@example.com"), await playerOf(world.database.db, world.trainer, ctfId, "bob@example.com"), await playerOf(world.database.db, world.trainer, ctfId, "cat@example.com"), await playerOf(world.database.db, world.trainer, ctfId, "dan@example.com")];
  const owls = await team(ctfId, "Owls", [ann.memberId, bob.memberId]);
  const foxes = await team(ctfId, "Foxes", [cat.memberId]);
  const idle = await team(ctfId, "Idle", [dan.memberId]);
  // A static challenge's solve keeps its points; a dynamic one's stored points are not what it counts for.
  const solve = (memberId: string, teamId: string, challengeId: string, minutesAgo: number) =>
    world.database.db.insert(solves).values({ id: newId("sol"), ctfId, challengeId, memberId, teamId, points: challengeId === warmUp ? 100 : 1, solvedAt: ago(minutesAgo) });
  // Ann solves the warm-up for the Owls, Bob the dynamic one; Cat solves both, the dynamic one first.
  await solve(cat.memberId, foxes, decaying, 50);
  await solve(ann.memberId, owls, warmUp, 40);
  await solve(bob.memberId, owls, decaying, 30);
  await solve(cat.memberId, foxes, warmUp, 20);
  // Bob unlocks the warm-up's first hint for the Owls (10).
  await world.database.db.insert(hintUnlocks).values({ id: newId("hnt"), ctfId, challengeId: warmUp, memberId: bob.memberId, teamId: owls, hint: 1, cost: 10, unlockedAt: ago(35) });
  return { ctfId, warmUp, decaying, ann, bob, cat, dan, owls, foxes, idle };
}

describe("teams mode", () => {
  it("ranks every team by name and shared score (a dynamic challenge counted once per team), with team ids and first bloods", async () => {
    const { ctfId, warmUp, decaying, ann, bob, owls, foxes, idle } = await teamsGame();
    const value = challengeValue(dynamic, 200, 2);
    const board = await api.organiser(ctfId);
    expect(board.pagination.total).toBe(3);
    expect(standingsOf(board)).toEqual([
      ["Foxes", 100 + value],
      ["Owls", 100 + value - 10],
      ["Idle", 0],
    ]);
    expect(board.data.map((e: any) => [e.pos, e.member_id, e.team_id, e.solves, e.first_blood])).toEqual([
      [1, null, foxes, 2, [decaying]],
      [2, null, owls, 2, [warmUp]],
      [3, null, idle, 0, []],
    ]);
    expect((await api.public(ctfId)).data).toEqual(board.data);
    // Each member's score is the team's.
    for (const member of [ann, bob]) expect(await playerScore(world.database.db, { ctfId, memberId: member.memberId, teamId: owls })).toBe(100 + value - 10);
  });

  it("ties go to the team that reached the score first", async () => {
    const { ctfId, warmUp, owls, foxes, ann, cat } = await teamsGame();
    // Drop every row, then two teams solve the warm-up: the Foxes later than the Owls.
    await world.database.db.delete(solves).where(eq(solves.ctfId, ctfId));
    await world.database.db.delete(hintUnlocks).where(eq(hintUnlocks.ctfId, ctfId));
    await world.database.db.insert(solves).values([
      { id: newId("sol"), ctfId, challengeId: warmUp, memberId: cat.memberId, teamId: foxes, points: 100, solvedAt: ago(5) },
      { id: newId("sol"), ctfId, challengeId: warmUp, memberId: ann.memberId, teamId: owls, points: 100, solvedAt: ago(10) },
    ]);
    expect(standingsOf(await api.organiser(ctfId))).toEqual([
      ["Owls", 100],
      ["Foxes", 100],
      ["Idle", 0],
    ]);
  });

  it("CTFtime's feed, the graph and the archive use the teams: names, per-team scores and solves; each member's final score is the team's", async () => {
    const { ctfId, ann, bob, cat, dan } = await teamsGame();
    const value = challengeValue(dynamic, 200, 2);
    const feed = await api.ctftime(ctfId);
    expect(feed.standings.map((s: any) => [s.pos, s.team, s.score, Object.values(s.taskStats).map((t: any) => t.points).sort()])).toEqual([
      [1, "Foxes", 100 + value, [100, value].sort()],
      [2, "Owls", 90 + value, [100, value].sort()],
      [3, "Idle", 0, []],
    ]);
    const graph = expectStatus(await api.graph(ctfId), 200);
    expect(graph.series.map((s: any) => [s.name, s.team_id !== null, s.steps.map((step: any) => step.score)])).toEqual([
      ["Foxes", true, [0, value, value + 100]],
      ["Owls", true, [0, 100, 90, 90 + value]],
      ["Idle", true, [0]],
    ]);

    await api.archive(ctfId);
    const [ctf] = await world.database.db.select().from(ctfs).where(eq(ctfs.id, ctfId));
    expect(ctf.snapshot!.scores.map((s: any) => [s.name, s.member_id, s.email, s.score])).toEqual([
      ["Foxes", null, null, 100 + value],
      ["Owls", null, null, 90 + value],
      ["Idle", null, null, 0],
    ]);
    expect(ctf.snapshot!.solves!.every((s: any) => s.team_id)).toBe(true);
    const finals = Object.fromEntries((await world.database.db.select({ id: members.id, score: members.score }).from(members).where(eq(members.ctfId, ctfId))).map((m) => [m.id, m.score]));
    expect(finals).toEqual({ [ann.memberId]: 90 + value, [bob.memberId]: 90 + value, [cat.memberId]: 100 + value, [dan.memberId]: 0 });
    // The archived board is the snapshot's, per team.
    expect(standingsOf(await api.public(ctfId))).toEqual([
      ["Foxes", 100 + value],
      ["Owls", 90 + value],
      ["Idle", 0],
    ]);
  });
});
