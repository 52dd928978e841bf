import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { ctfs } from "@/db/schema";
import { challengeValue } from "@/lib/ctf/challenges/scoring";
import { builtinHostWorld } from "../../helpers/builtin-host";
import { expectStatus, playableCompetition, sleep, submitFlagAs, unlockHintAs } from "../../helpers/competition";
import { playerOf, publishedChallenge } from "../../helpers/samples/play";
import { boards, standingsOf } from "./scoreboard-calls";
import { getChallenge } from "@/lib/ctf/challenges/challenges";
import { playerProgress } from "@/lib/ctf/play/play";
import { publicCompetition } from "@/lib/ctf/play/public";

/**
 * `freeze_at`: once passed, the public board, the score graph and CTFtime's feed stand as they
 * were then (solves and unlocks before it, dynamic values of then); the organiser's board stays
 * live; clearing it, or archiving, shows everything.
 */

const world = builtinHostWorld();

let api: ReturnType<typeof boards>;
const dynamic = { type: "dynamic" as const, initial: 300, minimum: 50, decay: 5 };

beforeEach(() => {
  api = boards(world.trainer.secret);
});

const setFreeze = (ctfId: string, freezeAt: Date | null) => world.database.db.update(ctfs).set({ freezeAt }).where(eq(ctfs.id, ctfId));

/** Ann solves the warm-up and the dynamic challenge, then the board freezes; Bob solves both and Ann unlocks a hint after. */
async function frozenGame() {
  const { ctfId, challengeId: warmUp } = await playableCompetition(world.database.db, world.trainer);
  const decaying = await publishedChallenge(world.database.db, world.trainer, ctfId, { title: "Decaying", flag: "CTF{decay}", points: 300, scoring: dynamic, hints: [] });
  const ann = await playerOf(world.database.db, world.trainer, ctfId, "ann@example.com");
  const bob = await playerOf(world.database.db, world.trainer, ctfId, "bob@example.com");
  await submitFlagAs(ann.cookie, ctfId, warmUp, "CTF{warm}");
  await submitFlagAs(ann.cookie, ctfId, decaying, "CTF{decay}");
  await sleep(5);
  const freezeAt = new Date();
  await setFreeze(ctfId, freezeAt);
  await sleep(5);
  expect(expectStatus(await submitFlagAs(bob.cookie, ctfId, warmUp, "CTF{warm}"), 200).status).toBe("correct");
  expect(expectStatus(await submitFlagAs(bob.cookie, ctfId, decaying, "CTF{decay}"), 200).status).toBe("correct");
  expect(expectStatus(await unlockHintAs(ann.cookie, ctfId, warmUp, 1), 200).cost).toBe(10);
  return { ctfId, warmUp, decaying, ann, bob, freezeAt };
}

describe("a frozen scoreboard", () => {
  it("the public board does not move after freeze_at while the organiser's does; it says when it froze", async () => {
    const { ctfId, warmUp, freezeAt } = await frozenGame();
    const live = challengeValue(dynamic, 300, 2);
    expect(live).toBeLessThan(300);

    const organiser = await api.organiser(ctfId);
    expect(standingsOf(organiser)).toEqual([
      ["bob", 100 + live],
      ["ann", 100 + live - 10],
    ]);
    expect(organiser.frozen_at).toBeUndefined();

    const shown = await api.public(ctfId);
    expect(shown.frozen_at).toBe(freezeAt.toISOString());
    // As of the freeze: Ann's two solves at the value of one solve, no hint cost; Bob nothing yet.
    expect(standingsOf(shown)).toEqual([
      ["ann", 100 + 300],
      ["bob", 0],
    ]);
    expect(shown.data.map((e: any) => [e.solves, e.first_blood.length])).toEqual([
      [2, 2],
      [0, 0],
    ]);
    expect(shown.data[0].first_blood).toContain(warmUp);

    // CTFtime's feed and the graph stand still too.
    const feed = await api.ctftime(ctfId);
    expect(feed.standings.map((s: any) => [s.team, s.score, Object.keys(s.taskStats).length])).toEqual([
      ["ann", 400, 2],
      ["bob", 0, 0],
    ]);
    const graph = expectStatus(await api.graph(ctfId), 200);
    expect(graph.frozen_at).toBe(freezeAt.toISOString());
    expect(graph.series.map((s: any) => [s.name, s.steps.map((step: any) => step.score)])).toEqual([
      ["ann", [0, 100, 400]],
      ["bob", [0]],
    ]);
    expect(graph.series.flatMap((s: any) => s.steps.slice(1)).every((step: any) => Date.parse(step.at) < freezeAt.getTime())).toBe(true);
  });

  it("players see dynamic values as of the freeze: the page's points, their own score and what a solve or an unlock answers; the organiser's reads stay live", async () => {
    const { ctfId, challengeId: warmUp } = await playableCompetition(world.database.db, world.trainer);
    const decaying = await publishedChallenge(world.database.db, world.trainer, ctfId, { title: "Decaying", flag: "CTF{decay}", points: 300, scoring: dynamic, hints: [] });
    const ann = await playerOf(world.database.db, world.trainer, ctfId, "ann@example.com");
    const bob = await playerOf(world.database.db, world.trainer, ctfId, "bob@example.com");
    const cal = await playerOf(world.database.db, world.trainer, ctfId, "cal@example.com");
    await submitFlagAs(ann.cookie, ctfId, decaying, "CTF{decay}");
    await sleep(5);
    await setFreeze(ctfId, new Date());
    await sleep(5);
    // After the freeze: Bob and Cal solve it; live it would fall twice.
    const frozen = challengeValue(dynamic, 300, 1);
    const live = challengeValue(dynamic, 300, 3);
    expect(live).toBeLessThan(frozen);
    expect(expectStatus(await submitFlagAs(bob.cookie, ctfId, decaying, "CTF{decay}"), 200)).toMatchObject({ status: "correct", points: frozen, score: frozen });
    expect(expectStatus(await submitFlagAs(cal.cookie, ctfId, decaying, "CTF{decay}"), 200)).toMatchObject({ status: "correct", points: frozen, score: frozen });

    // Ann's own score does not fall with their solves; her own later unlock and solve still count.
    const annPlayer = { memberId: ann.memberId, ctfId, name: "ann", teamId: null };
    expect((await playerProgress(world.database.db, annPlayer)).score).toBe(frozen);
    expect(expectStatus(await unlockHintAs(ann.cookie, ctfId, warmUp, 1), 200).score).toBe(frozen - 10);
    expect(expectStatus(await submitFlagAs(ann.cookie, ctfId, warmUp, "CTF{warm}"), 200)).toMatchObject({ points: 100, score: frozen - 10 + 100 });
    expect((await playerProgress(world.database.db, annPlayer)).score).toBe(frozen - 10 + 100);

    // The public page: the value as of the freeze; the organiser's read: live.
    const pointsOnPage = async () => (await publicCompetition(world.database.db, ctfId))!.challenges.find((c) => c.id === decaying)!.points;
    expect(await pointsOnPage()).toBe(frozen);
    expect((await getChallenge(world.database.db, world.trainer.workspaceId, ctfId, decaying)).points).toBe(live);
    expect(standingsOf(await api.organiser(ctfId))).toEqual([
      ["ann", live - 10 + 100],
      ["bob", live],
      ["cal", live],
    ]);

    // Cleared: everything live again.
    await setFreeze(ctfId, null);
    expect(await pointsOnPage()).toBe(live);
    expect((await playerProgress(world.database.db, annPlayer)).score).toBe(live - 10 + 100);
  });

  it("a freeze still to come changes nothing; clearing a passed one shows everything", async () => {
    const { ctfId } = await frozenGame();
    const live = standingsOf(await api.organiser(ctfId));

    await setFreeze(ctfId, new Date(Date.now() + 3_600_000));
    const ahead = await api.public(ctfId);
    expect(ahead.frozen_at).toBeNull();
    expect(standingsOf(ahead)).toEqual(live);

    await setFreeze(ctfId, null);
    const cleared = await api.public(ctfId);
    expect(cleared.frozen_at).toBeNull();
    expect(standingsOf(cleared)).toEqual(live);
    expect(expectStatus(await api.graph(ctfId), 200).frozen_at).toBeNull();
  });

  it("archiving shows everything: the snapshot is the live standings, whatever freeze_at says", async () => {
    const { ctfId } = await frozenGame();
    const live = standingsOf(await api.organiser(ctfId));
    await api.archive(ctfId);
    const archived = await api.public(ctfId);
    expect(archived.frozen_at).toBeNull();
    expect(standingsOf(archived)).toEqual(live);
    const graph = expectStatus(await api.graph(ctfId), 200);
    expect(graph.frozen_at).toBeNull();
    expect(graph.series.map((s: any) => s.name)).toEqual(live.map(([name]) => name));
  });
});
