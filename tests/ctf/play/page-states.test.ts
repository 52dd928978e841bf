import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import * as publicScoreboardRoute from "@/app/api/c/[ctf_id]/scoreboard/route";
import * as scoreboardRoute from "@/app/api/v1/ctfs/[ctf_id]/scoreboard/route";
import { ctfs } from "@/db/schema";
import { createCtf, stopCtf } from "@/lib/ctf/competitions/competitions";
import { challengeDescriptions, playerProgress } from "@/lib/ctf/play/play";
import { findPlayer } from "@/lib/ctf/play/players";
import { publicCompetition } from "@/lib/ctf/play/public";
import { createCtfInput } from "@/lib/ctf/competitions/schemas";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { createTrainer, type Trainer } from "../../helpers/fixtures";
import { call } from "../../helpers/http";
import { playerOf, runningCtf } from "../../helpers/samples/play";
import { expectStatus, playableCompetition, submitFlagAs, unlockHintAs } from "../../helpers/competition";
import { archiveCtf } from "@/lib/ctf/play/archive";

/**
 * What a competition's public page (`/c/{ctf_id}`) is given in each state: before the start
 * (titles only, a countdown), while it runs (content to players only), after the end (the
 * final scoreboard, no more flags), archived (the snapshot's final scoreboard, never the
 * content), and nothing for a draft or a stopped instance.
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

const publicBoard = (ctfId: string) => call(publicScoreboardRoute.GET, `/api/c/${ctfId}/scoreboard`, { params: { ctf_id: ctfId } });

describe("the public page's states", () => {
  it("a draft is no page; before the start: titles and costs only, no content, flags refused", async () => {
    const draft = await createCtf(database.db, trainer.workspaceId, createCtfInput.parse({ title: "Draft", starts_at: new Date(Date.now() + HOUR).toISOString(), ends_at: new Date(Date.now() + 2 * HOUR).toISOString() }));
    expect(await publicCompetition(database.db, draft.id)).toBeNull();
    expect((await publicBoard(draft.id)).status).toBe(404);

    const { ctfId, challengeId } = await playableCompetition(database.db, trainer, {
      window: { startsAt: new Date(Date.now() + HOUR), endsAt: new Date(Date.now() + 2 * HOUR) },
      challenge: { description: "The secret lies in the source." },
    });
    const page = await publicCompetition(database.db, ctfId);
    expect(page).toMatchObject({ status: "deployed", host: "builtin", challenges: [{ id: challengeId, title: "Warm-up", points: 100, hints: [{ cost: 10 }, { cost: 0 }] }] });
    expect(JSON.stringify(page)).not.toContain("secret lies");
    expect(JSON.stringify(page)).not.toContain("page source");
    const player = await playerOf(database.db, trainer, ctfId);
    expect((await submitFlagAs(player.cookie, ctfId, challengeId, "CTF{warm}")).status).toBe(409);
    expect((await unlockHintAs(player.cookie, ctfId, challengeId)).status).toBe(409);
    expect(expectStatus(await publicBoard(ctfId), 200).data).toHaveLength(1);
  });

  it("while it runs, a challenge's content goes to players only; after the end, flags are refused and the scoreboard is final", async () => {
    const { ctfId, challengeId } = await playableCompetition(database.db, trainer, { challenge: { description: "The secret lies in the source." } });
    // What the page hands a visitor: no content. A player gets the descriptions (the page asks only for a player).
    expect(JSON.stringify(await publicCompetition(database.db, ctfId))).not.toContain("secret lies");
    const ann = await playerOf(database.db, trainer, ctfId, "ann@example.com", "Ann");
    expect(await findPlayer(database.db, ctfId, undefined)).toBeNull();
    const signedIn = await findPlayer(database.db, ctfId, ann.cookie.split("=")[1]);
    expect(signedIn).toMatchObject({ memberId: ann.memberId, name: "Ann" });
    expect(await challengeDescriptions(database.db, ctfId)).toEqual({ [challengeId]: "The secret lies in the source." });
    expect(expectStatus(await submitFlagAs(ann.cookie, ctfId, challengeId, "CTF{warm}"), 200).status).toBe("correct");

    await database.db.update(ctfs).set({ endsAt: new Date(Date.now() - 1000) }).where(eq(ctfs.id, ctfId));
    const late = await submitFlagAs(ann.cookie, ctfId, challengeId, "CTF{again}");
    expect(late.status).toBe(409);
    expect(late.body.error.message).toMatch(/ended at/);
    expect(await publicCompetition(database.db, ctfId)).toMatchObject({ status: "deployed" });
    expect(expectStatus(await publicBoard(ctfId), 200).data).toEqual([{ pos: 1, member_id: ann.memberId, team_id: null, name: "Ann", score: 100, solves: 1, last_solve_at: expect.any(String), first_blood: [challengeId] }]);
    expect(await playerProgress(database.db, signedIn!)).toMatchObject({ score: 100, solved: [challengeId] });
  });

  it("stopped: no page and no public scoreboard (the instance is down); archived: the snapshot's final scoreboard, names only, no content", async () => {
    const { ctfId, challengeId } = await playableCompetition(database.db, trainer, { challenge: { description: "The secret lies in the source." } });
    const ann = await playerOf(database.db, trainer, ctfId, "ann@example.com", "Ann");
    const bob = await playerOf(database.db, trainer, ctfId, "bob@example.com");
    await unlockHintAs(bob.cookie, ctfId, challengeId);
    await submitFlagAs(ann.cookie, ctfId, challengeId, "CTF{warm}");
    await submitFlagAs(bob.cookie, ctfId, challengeId, "CTF{warm}");
    const live = expectStatus(await publicBoard(ctfId), 200);
    expect(live.data.map((e: { name: string; score: number }) => [e.name, e.score])).toEqual([
      ["Ann", 100],
      ["bob", 90],
    ]);

    await stopCtf(database.db, trainer.workspaceId, ctfId);
    expect(await publicCompetition(database.db, ctfId)).toBeNull();
    expect((await publicBoard(ctfId)).status).toBe(404);

    await archiveCtf(database.db, trainer.workspaceId, ctfId);
    const page = await publicCompetition(database.db, ctfId);
    expect(page).toMatchObject({ status: "archived", url: null, challenges: [{ id: challengeId, title: "Warm-up" }] });
    expect(JSON.stringify(page)).not.toContain("secret lies");
    const final = expectStatus(await publicBoard(ctfId), 200);
    expect(final).toEqual(live);
    expect(JSON.stringify(final)).not.toContain("@example.com");
    // The organiser's read is the same snapshot.
    expect(expectStatus(await call(scoreboardRoute.GET, "/scoreboard", { key: trainer.secret, params: { ctf_id: ctfId } }), 200).data).toEqual(live.data);
    // Archived: nothing more is played.
    expect((await submitFlagAs(bob.cookie, ctfId, challengeId, "CTF{warm}")).status).toBe(409);
    expect((await unlockHintAs(ann.cookie, ctfId, challengeId)).status).toBe(409);
  });

  it("an archive from before players could play (addresses and scores only) still shows positions and names", async () => {
    const ctfId = await runningCtf(database.db, trainer);
    await archiveCtf(database.db, trainer.workspaceId, ctfId);
    await database.db
      .update(ctfs)
      .set({
        snapshot: {
          archived_at: new Date().toISOString(),
          challenges: [],
          members: [],
          scores: [
            { member_id: "mem_01JD6S1B9R8W6H3KX1ZJ0V5N2Q", email: "old.timer@example.com", score: 300 },
            { member_id: "mem_01JD6S1B9R8W6H3KX1ZJ0V5N2R", email: "newbie@example.com", score: 0 },
          ],
        },
      })
      .where(eq(ctfs.id, ctfId));
    expect(expectStatus(await publicBoard(ctfId), 200).data).toEqual([
      { pos: 1, member_id: "mem_01JD6S1B9R8W6H3KX1ZJ0V5N2Q", team_id: null, name: "old.timer", score: 300, solves: 0, last_solve_at: null, first_blood: [] },
      { pos: 2, member_id: "mem_01JD6S1B9R8W6H3KX1ZJ0V5N2R", team_id: null, name: "newbie", score: 0, solves: 0, last_solve_at: null, first_blood: [] },
    ]);
  });
});
