import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { ctfs, solves } from "@/db/schema";
import { challengeValue } from "@/lib/ctf/challenges/scoring";
import { newId } from "@/lib/kernel/ids";
import { playerProgress } from "@/lib/ctf/play/play";
import { builtinHostWorld } from "../../helpers/builtin-host";
import { expectStatus, playableCompetition, sleep, submitFlagAs, unlockHintAs } from "../../helpers/competition";
import { playerOf, publishedChallenge } from "../../helpers/samples/play";
import { boards, standingsOf } from "./scoreboard-calls";

/**
 * The scoreboard counts dynamic challenges at their current value (every solver's score
 * follows it, as on CTFd) and marks first blood on entries and solves.
 */

const world = builtinHostWorld();

let api: ReturnType<typeof boards>;
const dynamic = { type: "dynamic" as const, initial: 500, minimum: 100, decay: 10 };

beforeEach(() => {
  api = boards(world.trainer.secret);
});

describe("dynamic scoring", () => {
  it("after three solves the value is the formula's, and every solver's score follows it", async () => {
    const { ctfId, challengeId: warmUp } = await playableCompetition(world.database.db, world.trainer);
    const decaying = await publishedChallenge(world.database.db, world.trainer, ctfId, { title: "Decaying", flag: "CTF{decay}", points: 500, scoring: dynamic, hints: [] });
    const [ann, bob, cat] = [await playerOf(world.database.db, world.trainer, ctfId, "ann@example.com"), await playerOf(world.database.db, world.trainer, ctfId, "bob@example.com"), await playerOf(world.database.db, world.trainer, ctfId, "cat@example.com")];
    await submitFlagAs(ann.cookie, ctfId, warmUp, "CTF{warm}");

    // Each answer's score is the solver's score as the board counts it, at the value of that moment.
    expect(expectStatus(await submitFlagAs(ann.cookie, ctfId, decaying, "CTF{decay}"), 200).score).toBe(100 + challengeValue(dynamic, 500, 1));
    expect(expectStatus(await submitFlagAs(bob.cookie, ctfId, decaying, "CTF{decay}"), 200).score).toBe(challengeValue(dynamic, 500, 2));
    expect(expectStatus(await submitFlagAs(cat.cookie, ctfId, decaying, "CTF{decay}"), 200).score).toBe(challengeValue(dynamic, 500, 3));

    const value = challengeValue(dynamic, 500, 3);
    // ceil((100 − 500) / 10² · 2² + 500) = 484
    expect(value).toBe(484);
    const board = await api.organiser(ctfId);
    expect(standingsOf(board)).toEqual([
      ["ann", 100 + 484],
      ["bob", 484],
      ["cat", 484],
    ]);
    expect(expectStatus(await unlockHintAs(bob.cookie, ctfId, warmUp, 1), 200).score).toBe(484 - 10);
    // The first solver's own page follows too, and so does CTFtime's feed (points per task).
    expect((await playerProgress(world.database.db, { memberId: ann.memberId, ctfId, name: "ann", teamId: null })).score).toBe(584);
    const feed = await api.ctftime(ctfId);
    expect(feed.standings.map((s: any) => [s.team, s.score, s.taskStats.Decaying?.points])).toEqual([
      ["ann", 584, 484],
      ["cat", 484, 484],
      ["bob", 474, 484],
    ]);
    // The graph's last step is the board's score.
    const graph = expectStatus(await api.graph(ctfId), 200);
    expect(graph.series.map((s: any) => [s.name, s.score, s.steps.at(-1).score])).toEqual([
      ["ann", 584, 584],
      ["cat", 484, 484],
      ["bob", 474, 474],
    ]);
  });

  it("the snapshot keeps the values of the archiving moment: scores and each solve's points", async () => {
    const { ctfId, challengeId } = await playableCompetition(world.database.db, world.trainer, { challenge: { title: "Decaying", flag: "CTF{decay}", points: 100, scoring: { type: "dynamic", initial: 100, minimum: 10, decay: 3 }, hints: [] } });
    const players = [await playerOf(world.database.db, world.trainer, ctfId), await playerOf(world.database.db, world.trainer, ctfId), await playerOf(world.database.db, world.trainer, ctfId), await playerOf(world.database.db, world.trainer, ctfId)];
    for (const player of players) expect(expectStatus(await submitFlagAs(player.cookie, ctfId, challengeId, "CTF{decay}"), 200).status).toBe("correct");
    await api.archive(ctfId);
    const [ctf] = await world.database.db.select().from(ctfs).where(eq(ctfs.id, ctfId));
    // 100, 90, 60, 10: four solves → every solver has 10.
    expect(ctf.snapshot!.scores.map((s) => s.score)).toEqual([10, 10, 10, 10]);
    expect(ctf.snapshot!.solves!.map((s) => s.points)).toEqual([10, 10, 10, 10]);
    expect(ctf.snapshot!.members.map((m) => m.score)).toEqual([10, 10, 10, 10]);
  });
});

describe("first blood", () => {
  it("marks each challenge's first solver on the scoreboard (organiser's and public), and in the snapshot's solves", async () => {
    const { ctfId, challengeId: warmUp } = await playableCompetition(world.database.db, world.trainer);
    const second = await publishedChallenge(world.database.db, world.trainer, ctfId, { title: "Second", flag: "CTF{two}", points: 50, hints: [] });
    const untouched = await publishedChallenge(world.database.db, world.trainer, ctfId, { title: "Untouched", flag: "CTF{none}", points: 50, hints: [] });
    const ann = await playerOf(world.database.db, world.trainer, ctfId, "ann@example.com");
    const bob = await playerOf(world.database.db, world.trainer, ctfId, "bob@example.com");
    await submitFlagAs(bob.cookie, ctfId, second, "CTF{two}");
    await sleep(5);
    await submitFlagAs(ann.cookie, ctfId, warmUp, "CTF{warm}");
    await sleep(5);
    await submitFlagAs(ann.cookie, ctfId, second, "CTF{two}");
    await sleep(5);
    await submitFlagAs(bob.cookie, ctfId, warmUp, "CTF{warm}");

    const board = await api.organiser(ctfId);
    // Both at 150, Ann first (she reached it first).
    expect(board.data.map((e: any) => [e.name, e.first_blood])).toEqual([
      ["ann", [warmUp]],
      ["bob", [second]],
    ]);
    expect((await api.public(ctfId)).data).toEqual(board.data);
    expect(JSON.stringify(board)).not.toContain(untouched);

    await api.archive(ctfId);
    const [ctf] = await world.database.db.select().from(ctfs).where(eq(ctfs.id, ctfId));
    expect(ctf.snapshot!.solves!.map((s: any) => [s.member_id, s.challenge_id, s.first_blood])).toEqual([
      [bob.memberId, second, true],
      [ann.memberId, warmUp, true],
      [ann.memberId, second, false],
      [bob.memberId, warmUp, false],
    ]);
    // The archived board (from the snapshot) keeps the marks.
    expect((await api.public(ctfId)).data.map((e: any) => [e.name, e.first_blood])).toEqual([
      ["ann", [warmUp]],
      ["bob", [second]],
    ]);
  });

  it("two solves at the same instant: the first by id draws first blood", async () => {
    const { ctfId, challengeId } = await playableCompetition(world.database.db, world.trainer);
    const ann = await playerOf(world.database.db, world.trainer, ctfId, "ann@example.com");
    const bob = await playerOf(world.database.db, world.trainer, ctfId, "bob@example.com");
    const at = new Date(Date.now() - 60_000);
    const [low, high] = [newId("sol"), newId("sol")].sort();
    await world.database.db.insert(solves).values([
      { id: high, ctfId, challengeId, memberId: ann.memberId, points: 100, solvedAt: at },
      { id: low, ctfId, challengeId, memberId: bob.memberId, points: 100, solvedAt: at },
    ]);
    const board = await api.organiser(ctfId);
    expect(board.data.find((e: any) => e.member_id === bob.memberId).first_blood).toEqual([challengeId]);
    expect(board.data.find((e: any) => e.member_id === ann.memberId).first_blood).toEqual([]);
  });
});
