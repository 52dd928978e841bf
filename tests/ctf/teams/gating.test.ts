import { and, count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as artifactRoute from "@/app/api/c/[ctf_id]/challenges/[challenge_id]/artifact/route";
import * as fileRoute from "@/app/api/c/[ctf_id]/challenges/[challenge_id]/files/[file_id]/route";
import * as targetRoute from "@/app/api/c/[ctf_id]/challenges/[challenge_id]/target/[page]/route";
import { challenges, flagAttempts } from "@/db/schema";
import { publishChallenge, completePublish } from "@/lib/ctf/challenges/challenges";
import { challengeValue } from "@/lib/ctf/challenges/scoring";
import { challengeDescriptions, playerProgress } from "@/lib/ctf/play/play";
import { findPlayer } from "@/lib/ctf/play/players";
import { builtinHostWorld } from "../../helpers/builtin-host";
import { call } from "../../helpers/http";
import { expectStatus, sameOrigin, submitFlagAs, unlockHintAs } from "../../helpers/competition";
import { draftChallenge, storedFile } from "../../helpers/samples/files";
import { publishedGenerated } from "../../helpers/samples/generated";
import { playerOf, runningCtf } from "../../helpers/samples/play";
import { gatedChallenge, teamsApi, teamsCtf } from "./helpers";

/**
 * A challenge's prerequisites (`requires`: locked, 409 naming what opens it, on every player
 * route, until solved — by the team in teams mode), its attempt cap (`max_attempts`: closed
 * after that many wrong flags, also under concurrent submissions) and a dynamic challenge's
 * points (CTFd's formula, the value after each solve).
 */

const world = builtinHostWorld();

const db = () => world.database.db;
const cookieValue = (cookie: string) => cookie.split("=")[1];
const progressOf = async (ctfId: string, cookie: string) => playerProgress(db(), (await findPlayer(db(), ctfId, cookieValue(cookie)))!);

const download = (cookie: string, ctfId: string, challengeId: string, fileId: string) =>
  call(fileRoute.GET, `/api/c/${ctfId}/challenges/${challengeId}/files/${fileId}`, { params: { ctf_id: ctfId, challenge_id: challengeId, file_id: fileId }, headers: { ...sameOrigin, cookie } });
const artifact = (cookie: string, ctfId: string, challengeId: string) =>
  call(artifactRoute.GET, `/api/c/${ctfId}/challenges/${challengeId}/artifact`, { params: { ctf_id: ctfId, challenge_id: challengeId }, headers: { ...sameOrigin, cookie } });
const target = (cookie: string, ctfId: string, challengeId: string) =>
  call(targetRoute.GET, `/api/c/${ctfId}/challenges/${challengeId}/target/index`, { params: { ctf_id: ctfId, challenge_id: challengeId, page: "index" }, headers: { ...sameOrigin, cookie } });

/** A published challenge written by hand that requires `requires`, with one stored file. */
async function lockedWithFile(ctfId: string, requires: string[]) {
  const params = await draftChallenge(db(), world.trainer, ctfId);
  const fileId = await storedFile(db(), world.trainer, params);
  await db().update(challenges).set({ requires }).where(eq(challenges.id, params.challenge_id));
  await publishChallenge(db(), world.trainer.workspaceId, ctfId, params.challenge_id);
  await completePublish(db(), params.challenge_id);
  return { challengeId: params.challenge_id, fileId };
}

describe("requires", () => {
  it("a locked challenge refuses flag, hint, file, artifact and target (409 naming the titles), then opens once the prerequisite is solved", async () => {
    const ctfId = await runningCtf(db(), world.trainer);
    const first = await gatedChallenge(db(), world.trainer, ctfId, { title: "First steps", flag: "CTF{one}" });
    const { challengeId: locked, fileId } = await lockedWithFile(ctfId, [first]);
    await db().update(challenges).set({ hints: [{ text: "Carve it.", cost: 5 }] }).where(eq(challenges.id, locked));
    const generated = await publishedGenerated(db(), world.trainer, ctfId, "caesars-diary");
    await db().update(challenges).set({ requires: [first] }).where(eq(challenges.id, generated));
    const ann = await playerOf(db(), world.trainer, ctfId);

    for (const refused of [
      await submitFlagAs(ann.cookie, ctfId, locked, "CTF{carved}"),
      await unlockHintAs(ann.cookie, ctfId, locked, 1),
      await download(ann.cookie, ctfId, locked, fileId),
      await artifact(ann.cookie, ctfId, generated),
      await target(ann.cookie, ctfId, generated),
    ]) {
      expect(refused.status).toBe(409);
      expect(refused.body.error.message).toBe("Locked: solve “First steps” first.");
    }
    expect(await db().select().from(flagAttempts).where(eq(flagAttempts.challengeId, locked))).toHaveLength(0);
    const before = await progressOf(ctfId, ann.cookie);
    expect(before.locked).toEqual({ [locked]: ["First steps"], [generated]: ["First steps"] });
    expect(Object.keys(await challengeDescriptions(db(), ctfId, before.locked))).toEqual([first]);

    expectStatus(await submitFlagAs(ann.cookie, ctfId, first, "CTF{one}"), 200);
    expect((await download(ann.cookie, ctfId, locked, fileId)).status).toBe(200);
    expect(expectStatus(await artifact(ann.cookie, ctfId, generated), 200).challenge_id).toBe(generated);
    expect(expectStatus(await submitFlagAs(ann.cookie, ctfId, locked, "CTF{carved}"), 200).status).toBe("correct");
    expect((await progressOf(ctfId, ann.cookie)).locked).toEqual({});
  });

  it("an unpublished prerequisite locks nothing; several missing are all named", async () => {
    const ctfId = await runningCtf(db(), world.trainer);
    const a = await gatedChallenge(db(), world.trainer, ctfId, { title: "Alpha", flag: "CTF{a}" });
    const b = await gatedChallenge(db(), world.trainer, ctfId, { title: "Beta", flag: "CTF{b}" });
    const hidden = await gatedChallenge(db(), world.trainer, ctfId, { title: "Hidden", flag: "CTF{h}" });
    await db().update(challenges).set({ status: "draft" }).where(eq(challenges.id, hidden));
    const c = await gatedChallenge(db(), world.trainer, ctfId, { title: "Gamma", flag: "CTF{c}" }, { requires: [a, b, hidden] });
    const ann = await playerOf(db(), world.trainer, ctfId);
    expect((await submitFlagAs(ann.cookie, ctfId, c, "CTF{c}")).body.error.message).toBe("Locked: solve “Alpha”, “Beta” first.");
    expectStatus(await submitFlagAs(ann.cookie, ctfId, a, "CTF{a}"), 200);
    expectStatus(await submitFlagAs(ann.cookie, ctfId, b, "CTF{b}"), 200);
    expect(expectStatus(await submitFlagAs(ann.cookie, ctfId, c, "CTF{c}"), 200).status).toBe("correct");
  });

  it("in teams mode a teammate's solve opens it for the whole team", async () => {
    const ctfId = await teamsCtf(db(), world.trainer);
    const first = await gatedChallenge(db(), world.trainer, ctfId, { title: "Entry", flag: "CTF{in}" });
    const next = await gatedChallenge(db(), world.trainer, ctfId, { title: "Next", flag: "CTF{next}" }, { requires: [first] });
    const ann = await playerOf(db(), world.trainer, ctfId);
    const bob = await playerOf(db(), world.trainer, ctfId);
    const team = expectStatus(await teamsApi.create(ann.cookie, ctfId, { name: "Openers" }), 201);
    expectStatus(await teamsApi.join(bob.cookie, ctfId, { invite_code: team.invite_code }), 200);
    expect((await submitFlagAs(bob.cookie, ctfId, next, "CTF{next}")).status).toBe(409);
    expectStatus(await submitFlagAs(ann.cookie, ctfId, first, "CTF{in}"), 200);
    expect(expectStatus(await submitFlagAs(bob.cookie, ctfId, next, "CTF{next}"), 200).status).toBe("correct");
    expect((await progressOf(ctfId, ann.cookie)).solved.sort()).toEqual([first, next].sort());
  });
});

describe("max_attempts", () => {
  it("closes after that many wrong flags (409 naming the cap, even for the right flag); the page sees tries left, then closed", async () => {
    const ctfId = await runningCtf(db(), world.trainer);
    const capped = await gatedChallenge(db(), world.trainer, ctfId, { title: "Two tries" }, { maxAttempts: 2 });
    const ann = await playerOf(db(), world.trainer, ctfId);
    expect(expectStatus(await submitFlagAs(ann.cookie, ctfId, capped, "CTF{no}"), 200).status).toBe("incorrect");
    expect((await progressOf(ctfId, ann.cookie)).caps[capped]).toEqual({ used: 1, max: 2, closed: false });
    expect(expectStatus(await submitFlagAs(ann.cookie, ctfId, capped, "CTF{still-no}"), 200).status).toBe("incorrect");
    for (const flag of ["CTF{third}", "CTF{warm}"]) {
      const closed = await submitFlagAs(ann.cookie, ctfId, capped, flag);
      expect(closed.status).toBe(409);
      expect(closed.body.error.message).toBe("Closed: all 2 wrong tries allowed on this challenge were used.");
    }
    expect((await progressOf(ctfId, ann.cookie)).caps[capped]).toEqual({ used: 2, max: 2, closed: true });
    // Another player has their own tries.
    const bob = await playerOf(db(), world.trainer, ctfId);
    expect(expectStatus(await submitFlagAs(bob.cookie, ctfId, capped, "CTF{warm}"), 200).status).toBe("correct");
    // A solve first: already_solved, never the cap.
    expect(expectStatus(await submitFlagAs(bob.cookie, ctfId, capped, "CTF{warm}"), 200).status).toBe("already_solved");
  });

  it("a cap of one: the message says “the one wrong try … was used” (singular), for a player and for a team", async () => {
    const ctfId = await runningCtf(db(), world.trainer);
    const capped = await gatedChallenge(db(), world.trainer, ctfId, { title: "One try" }, { maxAttempts: 1 });
    const ann = await playerOf(db(), world.trainer, ctfId);
    expect(expectStatus(await submitFlagAs(ann.cookie, ctfId, capped, "CTF{no}"), 200).status).toBe("incorrect");
    const closed = await submitFlagAs(ann.cookie, ctfId, capped, "CTF{warm}");
    expect(closed.status).toBe(409);
    expect(closed.body.error.message).toBe("Closed: the one wrong try allowed on this challenge was used.");

    const teamsId = await teamsCtf(db(), world.trainer);
    const teamCapped = await gatedChallenge(db(), world.trainer, teamsId, { title: "One team try" }, { maxAttempts: 1 });
    const bob = await playerOf(db(), world.trainer, teamsId);
    expectStatus(await teamsApi.create(bob.cookie, teamsId, { name: "Singles" }), 201);
    expectStatus(await submitFlagAs(bob.cookie, teamsId, teamCapped, "CTF{no}"), 200);
    expect((await submitFlagAs(bob.cookie, teamsId, teamCapped, "CTF{warm}")).body.error.message).toBe("Closed: the one wrong try allowed on this challenge was used by your team.");
  });

  it("a team's members share the tries", async () => {
    const ctfId = await teamsCtf(db(), world.trainer);
    const capped = await gatedChallenge(db(), world.trainer, ctfId, { title: "Shared tries" }, { maxAttempts: 2 });
    const ann = await playerOf(db(), world.trainer, ctfId);
    const bob = await playerOf(db(), world.trainer, ctfId);
    const team = expectStatus(await teamsApi.create(ann.cookie, ctfId, { name: "Guessers" }), 201);
    expectStatus(await teamsApi.join(bob.cookie, ctfId, { invite_code: team.invite_code }), 200);
    expectStatus(await submitFlagAs(ann.cookie, ctfId, capped, "CTF{a}"), 200);
    expectStatus(await submitFlagAs(bob.cookie, ctfId, capped, "CTF{b}"), 200);
    const closed = await submitFlagAs(ann.cookie, ctfId, capped, "CTF{warm}");
    expect(closed.status).toBe(409);
    expect(closed.body.error.message).toMatch(/were used by your team/);
  });

  it("20 wrong flags at once against a cap of 3: exactly 3 recorded, the rest 409", async () => {
    const ctfId = await runningCtf(db(), world.trainer);
    const capped = await gatedChallenge(db(), world.trainer, ctfId, { title: "Rush" }, { maxAttempts: 3 });
    const ann = await playerOf(db(), world.trainer, ctfId);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => submitFlagAs(ann.cookie, ctfId, capped, `CTF{rush-${i}}`)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(3);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(17);
    const [{ n }] = await db().select({ n: count() }).from(flagAttempts).where(and(eq(flagAttempts.challengeId, capped), eq(flagAttempts.result, "incorrect")));
    expect(n).toBe(3);
  });
});

describe("dynamic scoring", () => {
  it("each correct answer earns the value after its solve (CTFd's formula); every solver's score follows the current value", async () => {
    const ctfId = await runningCtf(db(), world.trainer);
    const scoring = { type: "dynamic" as const, initial: 500, minimum: 100, decay: 3 };
    const dyn = await gatedChallenge(db(), world.trainer, ctfId, { title: "Falling", points: 500 }, { scoring });
    const solvers = await Promise.all([1, 2, 3].map(() => playerOf(db(), world.trainer, ctfId)));
    const points: number[] = [];
    for (const solver of solvers) points.push(expectStatus(await submitFlagAs(solver.cookie, ctfId, dyn, "CTF{warm}"), 200).points);
    expect(points).toEqual([500, 456, 323]);
    expect(points).toEqual([1, 2, 3].map((n) => challengeValue(scoring, 500, n)));
    for (const solver of solvers) expect((await progressOf(ctfId, solver.cookie)).score).toBe(323);
  });

  it("concurrent correct answers each count the others: distinct values", async () => {
    const ctfId = await runningCtf(db(), world.trainer);
    const scoring = { type: "dynamic" as const, initial: 1000, minimum: 100, decay: 10 };
    const dyn = await gatedChallenge(db(), world.trainer, ctfId, { title: "Race", points: 1000 }, { scoring });
    const solvers = await Promise.all(Array.from({ length: 5 }, () => playerOf(db(), world.trainer, ctfId)));
    const answers = await Promise.all(solvers.map((solver) => submitFlagAs(solver.cookie, ctfId, dyn, "CTF{warm}")));
    const points = answers.map((a) => expectStatus(a, 200).points).sort((x, y) => y - x);
    expect(points).toEqual([1, 2, 3, 4, 5].map((n) => challengeValue(scoring, 1000, n)));
  });
});
