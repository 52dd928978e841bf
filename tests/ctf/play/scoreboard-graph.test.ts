import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { ctfs, solves } from "@/db/schema";
import { createCtf } from "@/lib/ctf/competitions/competitions";
import { createCtfInput } from "@/lib/ctf/competitions/schemas";
import { newId } from "@/lib/kernel/ids";
import { builtinHostWorld } from "../../helpers/builtin-host";
import { expectStatus, playableCompetition, submitFlagAs, unlockHintAs } from "../../helpers/competition";
import { playerOf } from "../../helpers/samples/play";
import { boards } from "./scoreboard-calls";

const world = builtinHostWorld();

/** `GET /api/c/{ctf_id}/scoreboard/graph`: the top ten of the public board, each with their score over time. */

let api: ReturnType<typeof boards>;
const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

beforeEach(() => {
  api = boards(world.trainer.secret);
});

describe("the score graph", () => {
  it("answers the top ten in board order, each from 0 at the start with a step per solve and unlock, without credentials", async () => {
    const { ctfId, challengeId } = await playableCompetition(world.database.db, world.trainer);
    const [ctf] = await world.database.db.select().from(ctfs).where(eq(ctfs.id, ctfId));
    const ann = await playerOf(world.database.db, world.trainer, ctfId, "ann@example.com", "Ann");
    const bob = await playerOf(world.database.db, world.trainer, ctfId, "bob@example.com", "Bob");
    await unlockHintAs(ann.cookie, ctfId, challengeId, 1);
    await submitFlagAs(ann.cookie, ctfId, challengeId, "CTF{warm}");

    const graph = expectStatus(await api.graph(ctfId), 200);
    expect(graph).toEqual({
      frozen_at: null,
      series: [
        {
          pos: 1,
          member_id: ann.memberId,
          team_id: null,
          name: "Ann",
          score: 90,
          steps: [
            { at: ctf.startsAt.toISOString(), score: 0 },
            { at: expect.stringMatching(ISO_UTC), score: -10 },
            { at: expect.stringMatching(ISO_UTC), score: 90 },
          ],
        },
        { pos: 2, member_id: bob.memberId, team_id: null, name: "Bob", score: 0, steps: [{ at: ctf.startsAt.toISOString(), score: 0 }] },
      ],
    });
    const times = graph.series[0].steps.map((step: any) => Date.parse(step.at));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(JSON.stringify(graph)).not.toContain("@example.com");
  });

  it("an archived competition's graph steps down by hint costs too (kept in the snapshot): each line ends at the entry's score", async () => {
    const { ctfId, challengeId } = await playableCompetition(world.database.db, world.trainer);
    const ann = await playerOf(world.database.db, world.trainer, ctfId, "ann@example.com", "Ann");
    await unlockHintAs(ann.cookie, ctfId, challengeId, 1);
    await submitFlagAs(ann.cookie, ctfId, challengeId, "CTF{warm}");
    await api.archive(ctfId);

    const [{ snapshot }] = await world.database.db.select({ snapshot: ctfs.snapshot }).from(ctfs).where(eq(ctfs.id, ctfId));
    expect(snapshot!.hint_unlocks).toEqual([{ member_id: ann.memberId, team_id: null, challenge_id: challengeId, hint: 1, cost: 10, unlocked_at: expect.stringMatching(ISO_UTC) }]);
    const graph = expectStatus(await api.graph(ctfId), 200);
    expect(graph.series.map((s: any) => [s.name, s.score, s.steps.map((step: any) => step.score)])).toEqual([["Ann", 90, [0, -10, 90]]]);
  });

  it("an older snapshot without hint unlocks: the line closes on the entry's score with one step at the end of the window", async () => {
    const { ctfId, challengeId } = await playableCompetition(world.database.db, world.trainer);
    const ann = await playerOf(world.database.db, world.trainer, ctfId, "ann@example.com", "Ann");
    await unlockHintAs(ann.cookie, ctfId, challengeId, 1);
    await submitFlagAs(ann.cookie, ctfId, challengeId, "CTF{warm}");
    await api.archive(ctfId);
    const [{ snapshot, endsAt }] = await world.database.db.select({ snapshot: ctfs.snapshot, endsAt: ctfs.endsAt }).from(ctfs).where(eq(ctfs.id, ctfId));
    const { hint_unlocks: _kept, ...older } = snapshot!;
    await world.database.db.update(ctfs).set({ snapshot: older }).where(eq(ctfs.id, ctfId));

    const [line] = expectStatus(await api.graph(ctfId), 200).series;
    expect(line.steps.map((step: any) => step.score)).toEqual([0, 100, 90]);
    expect(line.steps.at(-1)).toEqual({ at: endsAt.toISOString(), score: 90 });
  });

  it("draws ten entries at most: the first ten of the board", async () => {
    const { ctfId, challengeId } = await playableCompetition(world.database.db, world.trainer);
    const players = [];
    for (let i = 0; i < 12; i++) players.push(await playerOf(world.database.db, world.trainer, ctfId, `p${i}@example.com`, `Player ${i}`));
    // Players 0–5 solve (oldest first), so they lead; the rest tie at 0.
    await world.database.db.insert(solves).values(players.slice(0, 6).map((p, i) => ({ id: newId("sol"), ctfId, challengeId, memberId: p.memberId, points: 100, solvedAt: new Date(Date.now() - (60 - i) * 60_000) })));
    const board = await api.public(ctfId);
    const graph = expectStatus(await api.graph(ctfId), 200);
    expect(graph.series).toHaveLength(10);
    expect(graph.series.map((s: any) => [s.pos, s.name, s.score])).toEqual(board.data.slice(0, 10).map((e: any) => [e.pos, e.name, e.score]));
  });

  it("is a 404 for a competition whose page is not public (a draft) and for an unknown id", async () => {
    const draft = await createCtf(world.database.db, world.trainer.workspaceId, createCtfInput.parse({ title: "Draft", starts_at: "2027-03-01T09:00:00Z", ends_at: "2027-03-02T09:00:00Z" }));
    expect((await api.graph(draft.id)).status).toBe(404);
    expect((await api.graph("ctf_01JD6S1B9R8W6H3KX1ZJ0V5N2Q")).status).toBe(404);
    expect((await api.graph("nope")).status).toBe(404);
  });
});
