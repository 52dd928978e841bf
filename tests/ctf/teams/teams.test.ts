import { and, count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ctfs, flagAttempts, hintUnlocks, members, solves, teams } from "@/db/schema";
import { builtinHostWorld } from "../../helpers/builtin-host";
import { createTrainer } from "../../helpers/fixtures";
import { expectStatus, submitFlagAs, unlockHintAs } from "../../helpers/competition";
import { playerOf, publishedChallenge, runningCtf } from "../../helpers/samples/play";
import { teamsApi, teamsCtf } from "./helpers";

/**
 * Teams through their routes: a player creates or joins one (the 409s: not teams mode, a team
 * already, a name taken, a full team, the window), two members share a solve and a hint's
 * cost, twenty join one team at once and `team_size_max` holds exactly, and the organiser
 * lists, renames, takes members out of and deletes teams.
 */

const world = builtinHostWorld();

const HOUR = 3_600_000;

const db = () => world.database.db;

describe("creating and joining", () => {
  it("creates a team with an invite code (the creator its first member), another player joins with the code, both read it", async () => {
    const ctfId = await teamsCtf(db(), world.trainer);
    const ann = await playerOf(db(), world.trainer, ctfId, undefined, "Ann");
    const bob = await playerOf(db(), world.trainer, ctfId, undefined, "Bob");
    const created = expectStatus(await teamsApi.create(ann.cookie, ctfId, { name: "  Null Pointers " }), 201);
    expect(created).toMatchObject({ name: "Null Pointers", members: [{ member_id: ann.memberId, name: "Ann" }] });
    expect(created.id).toMatch(/^team_/);
    expect(created.invite_code).toMatch(/^[A-Za-z0-9_-]{16}$/);
    const [stored] = await db().select().from(teams).where(eq(teams.id, created.id));
    expect(JSON.stringify(stored)).not.toContain(created.invite_code);

    const joined = expectStatus(await teamsApi.join(bob.cookie, ctfId, { invite_code: ` ${created.invite_code} ` }), 200);
    expect(joined.members.map((m: { name: string }) => m.name)).toEqual(["Ann", "Bob"]);
    const mine = expectStatus(await teamsApi.mine(bob.cookie, ctfId), 200);
    expect(mine).toEqual({ mode: "teams", team_size_max: null, team: joined });
  });

  it("reads team null before a team, and in individual mode", async () => {
    const ctfId = await teamsCtf(db(), world.trainer, 4);
    const ann = await playerOf(db(), world.trainer, ctfId);
    expect(expectStatus(await teamsApi.mine(ann.cookie, ctfId), 200)).toEqual({ mode: "teams", team_size_max: 4, team: null });
    const solo = await runningCtf(db(), world.trainer);
    const bob = await playerOf(db(), world.trainer, solo);
    expect(expectStatus(await teamsApi.mine(bob.cookie, solo), 200)).toEqual({ mode: "individual", team_size_max: null, team: null });
  });

  it("409s: individual mode, a team already, a name taken in any case, a full team; 404 for an unknown code; 422 for no name", async () => {
    const solo = await runningCtf(db(), world.trainer);
    const loner = await playerOf(db(), world.trainer, solo);
    const individual = await teamsApi.create(loner.cookie, solo, { name: "Solo" });
    expect(individual.status).toBe(409);
    expect(individual.body.error.message).toMatch(/played individually/);

    const ctfId = await teamsCtf(db(), world.trainer, 2);
    const [ann, bob, cid, dee] = await Promise.all([1, 2, 3, 4].map(() => playerOf(db(), world.trainer, ctfId)));
    const team = expectStatus(await teamsApi.create(ann.cookie, ctfId, { name: "Root" }), 201);
    const again = await teamsApi.create(ann.cookie, ctfId, { name: "Other" });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toMatch(/already in team “Root”/);
    const taken = await teamsApi.create(bob.cookie, ctfId, { name: "ROOT" });
    expect(taken.status).toBe(409);
    expect(taken.body.error.message).toMatch(/named “ROOT” already exists/);

    expectStatus(await teamsApi.join(bob.cookie, ctfId, { invite_code: team.invite_code }), 200);
    const full = await teamsApi.join(cid.cookie, ctfId, { invite_code: team.invite_code });
    expect(full.status).toBe(409);
    expect(full.body.error.message).toMatch(/is full: a team has at most 2 members/);

    for (const code of ["AAAAAAAAAAAAAAAA", "nope", "x".repeat(100)]) {
      const unknown = await teamsApi.join(dee.cookie, ctfId, { invite_code: code });
      expect(unknown.status).toBe(404);
      expect(unknown.body.error.message).toMatch(/No team has this invite code/);
    }
    // Another competition's code names nothing here.
    const elsewhere = await teamsCtf(db(), world.trainer);
    const eve = await playerOf(db(), world.trainer, elsewhere);
    expect((await teamsApi.join(eve.cookie, elsewhere, { invite_code: team.invite_code })).status).toBe(404);

    for (const body of [{}, { name: "" }, { name: "   " }, { name: "x".repeat(41) }, { name: "a\u202eb" }, { name: 42 }]) {
      const bad = await teamsApi.create(dee.cookie, ctfId, body);
      expect(bad.status, JSON.stringify(body)).toBe(422);
    }
    expect((await teamsApi.create(dee.cookie, ctfId, "{not json")).status).toBe(400);
  });

  it("a name must be one line of visible text: invisible, formatting, separator and direction characters → 422; real scripts and emoji pass", async () => {
    const ctfId = await teamsCtf(db(), world.trainer);
    const dee = await playerOf(db(), world.trainer, ctfId);
    const refused = ["\u200B\u200B", "\u00AD", "\u3164", "\u115F\u1160", "\uFFA0", "\u2800", "\u0301\u0301", "a\u{E0041}b", "a\u2028b", "a\u2029b", "abc\u061Cdef", "a\u200Db", "a\uFEFFb", "a\nb", "a\u202Eb", "a\u2066b"];
    for (const name of refused) {
      const bad = await teamsApi.create(dee.cookie, ctfId, { name });
      expect(bad.status, JSON.stringify(name)).toBe(422);
      expect(bad.body.error.fields[0]).toMatchObject({ field: "name", message: expect.stringMatching(/visible text on one line/) });
    }
    for (const name of ["Ünïcode Ωmega", "東京チーム", "Équipe é", "#1 ⚡ Rockets", "फ़ोर्स"]) {
      const ok = expectStatus(await teamsApi.create(dee.cookie, ctfId, { name }), 201);
      expect(ok.name).toBe(name);
      await db().update(members).set({ teamId: null }).where(eq(members.id, dee.memberId));
    }
  });

  it("every malformed invite code is the same 404 as an unknown one, however long (up to the body's bound)", async () => {
    const ctfId = await teamsCtf(db(), world.trainer);
    const dee = await playerOf(db(), world.trainer, ctfId);
    for (const code of ["abc", "x".repeat(17), "x".repeat(100), "x".repeat(101), "x".repeat(501), "x".repeat(2000), "AAAAAAAAAAAAAAA\u202E"]) {
      const unknown = await teamsApi.join(dee.cookie, ctfId, { invite_code: code });
      expect(unknown.status, `${code.length} characters`).toBe(404);
      expect(unknown.body.error.message).toMatch(/No team has this invite code/);
    }
  });

  it("forms teams before the start, not after the end nor on a stopped competition", async () => {
    const soon = await teamsCtf(db(), world.trainer, null, { startsAt: new Date(Date.now() + HOUR), endsAt: new Date(Date.now() + 2 * HOUR) });
    const early = await playerOf(db(), world.trainer, soon);
    expectStatus(await teamsApi.create(early.cookie, soon, { name: "Early birds" }), 201);

    const ctfId = await teamsCtf(db(), world.trainer);
    const late = await playerOf(db(), world.trainer, ctfId);
    await db().update(ctfs).set({ endsAt: new Date(Date.now() - 1000) }).where(eq(ctfs.id, ctfId));
    const ended = await teamsApi.create(late.cookie, ctfId, { name: "Late" });
    expect(ended.status).toBe(409);
    expect(ended.body.error.message).toMatch(/ended at/);
    await db().update(ctfs).set({ endsAt: new Date(Date.now() + HOUR), status: "stopped" }).where(eq(ctfs.id, ctfId));
    expect((await teamsApi.create(late.cookie, ctfId, { name: "Late" })).status).toBe(409);
  });

  it("needs the player's cookie", async () => {
    const ctfId = await teamsCtf(db(), world.trainer);
    const other = await teamsCtf(db(), world.trainer);
    const ann = await playerOf(db(), world.trainer, other);
    expect((await teamsApi.create("", ctfId, { name: "X" })).status).toBe(401);
    expect((await teamsApi.create(ann.cookie, ctfId, { name: "X" })).status).toBe(401);
  });
});

describe("concurrency", () => {
  it("20 players joining one team (team_size_max 3) at once: exactly 3 members", async () => {
    const ctfId = await teamsCtf(db(), world.trainer, 3);
    const owner = await playerOf(db(), world.trainer, ctfId);
    const team = expectStatus(await teamsApi.create(owner.cookie, ctfId, { name: "Crowd" }), 201);
    const players = await Promise.all(Array.from({ length: 20 }, () => playerOf(db(), world.trainer, ctfId)));
    const answers = await Promise.all(players.map((p) => teamsApi.join(p.cookie, ctfId, { invite_code: team.invite_code })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(2);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(18);
    for (const refused of answers.filter((a) => a.status === 409)) expect(refused.body.error.message).toMatch(/is full/);
    const [{ n }] = await db().select({ n: count() }).from(members).where(eq(members.teamId, team.id));
    expect(n).toBe(3);
  });

  it("20 teams named alike at once: one is created, the others 409 naming the name", async () => {
    const ctfId = await teamsCtf(db(), world.trainer);
    const players = await Promise.all(Array.from({ length: 20 }, () => playerOf(db(), world.trainer, ctfId)));
    const answers = await Promise.all(players.map((p, i) => teamsApi.create(p.cookie, ctfId, { name: i % 2 ? "Same Name" : "same name" })));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(19);
    for (const refused of answers.filter((a) => a.status === 409)) expect(refused.body.error.message).toMatch(/already exists/);
    const [{ n }] = await db().select({ n: count() }).from(teams).where(eq(teams.ctfId, ctfId));
    expect(n).toBe(1);
  });
});

describe("playing as a team", () => {
  it("two members share a solve (the second gets already_solved) and a hint's cost (once); scores are the team's", async () => {
    const ctfId = await teamsCtf(db(), world.trainer);
    const challengeId = await publishedChallenge(db(), world.trainer, ctfId);
    const ann = await playerOf(db(), world.trainer, ctfId);
    const bob = await playerOf(db(), world.trainer, ctfId);
    const team = expectStatus(await teamsApi.create(ann.cookie, ctfId, { name: "Pair" }), 201);
    expectStatus(await teamsApi.join(bob.cookie, ctfId, { invite_code: team.invite_code }), 200);

    expect(expectStatus(await unlockHintAs(ann.cookie, ctfId, challengeId, 1), 200)).toMatchObject({ cost: 10, score: -10 });
    expect(expectStatus(await unlockHintAs(bob.cookie, ctfId, challengeId, 1), 200)).toMatchObject({ cost: 10, score: -10 });
    expect(expectStatus(await submitFlagAs(ann.cookie, ctfId, challengeId, "CTF{warm}"), 200)).toEqual({ status: "correct", points: 100, score: 90 });
    expect(expectStatus(await submitFlagAs(bob.cookie, ctfId, challengeId, "CTF{warm}"), 200)).toEqual({ status: "already_solved", points: 0, score: 90 });

    const solveRows = await db().select().from(solves).where(eq(solves.ctfId, ctfId));
    expect(solveRows).toHaveLength(1);
    expect(solveRows[0]).toMatchObject({ teamId: team.id, memberId: ann.memberId });
    const unlockRows = await db().select().from(hintUnlocks).where(eq(hintUnlocks.ctfId, ctfId));
    expect(unlockRows).toHaveLength(1);
    const attempts = await db().select().from(flagAttempts).where(eq(flagAttempts.ctfId, ctfId));
    expect(attempts.every((attempt) => attempt.teamId === team.id)).toBe(true);
  });

  it("without a team, flags and hints answer 409 “Create or join a team first”", async () => {
    const ctfId = await teamsCtf(db(), world.trainer);
    const challengeId = await publishedChallenge(db(), world.trainer, ctfId);
    const ann = await playerOf(db(), world.trainer, ctfId);
    for (const answer of [await submitFlagAs(ann.cookie, ctfId, challengeId, "CTF{warm}"), await unlockHintAs(ann.cookie, ctfId, challengeId, 1)]) {
      expect(answer.status).toBe(409);
      expect(answer.body.error.message).toMatch(/Create or join a team first/);
    }
    expect(await db().select().from(solves).where(eq(solves.ctfId, ctfId))).toHaveLength(0);
  });

  it("a member taken out plays for no team (409) while the team keeps its solve", async () => {
    const ctfId = await teamsCtf(db(), world.trainer);
    const challengeId = await publishedChallenge(db(), world.trainer, ctfId);
    const ann = await playerOf(db(), world.trainer, ctfId);
    const team = expectStatus(await teamsApi.create(ann.cookie, ctfId, { name: "Solo team" }), 201);
    expectStatus(await submitFlagAs(ann.cookie, ctfId, challengeId, "CTF{warm}"), 200);
    expectStatus(await teamsApi.removeMember(world.trainer.secret, ctfId, team.id, ann.memberId), 200);
    expect((await submitFlagAs(ann.cookie, ctfId, challengeId, "CTF{warm}")).status).toBe(409);
    expect(await db().select().from(solves).where(and(eq(solves.teamId, team.id)))).toHaveLength(1);
  });
});

describe("the organiser", () => {
  it("lists teams with members, renames (409 on a taken name), takes a member out, deletes a team with its solves", async () => {
    const ctfId = await teamsCtf(db(), world.trainer);
    const challengeId = await publishedChallenge(db(), world.trainer, ctfId);
    const ann = await playerOf(db(), world.trainer, ctfId, "ann@example.com", "Ann");
    const bob = await playerOf(db(), world.trainer, ctfId, "bob@example.com", "Bob");
    const cid = await playerOf(db(), world.trainer, ctfId, "cid@example.com", "Cid");
    const red = expectStatus(await teamsApi.create(ann.cookie, ctfId, { name: "Red" }), 201);
    expectStatus(await teamsApi.join(bob.cookie, ctfId, { invite_code: red.invite_code }), 200);
    const blue = expectStatus(await teamsApi.create(cid.cookie, ctfId, { name: "Blue" }), 201);
    expectStatus(await submitFlagAs(ann.cookie, ctfId, challengeId, "CTF{warm}"), 200);

    const list = expectStatus(await teamsApi.list(world.trainer.secret, ctfId), 200);
    expect(list.pagination.total).toBe(2);
    expect(list.data.map((t: { name: string }) => t.name)).toEqual(["Red", "Blue"]);
    expect(list.data[0].members).toEqual([
      { id: ann.memberId, name: "Ann", email: "ann@example.com" },
      { id: bob.memberId, name: "Bob", email: "bob@example.com" },
    ]);
    expect(JSON.stringify(list.body ?? list)).not.toContain(red.invite_code);

    expect(expectStatus(await teamsApi.rename(world.trainer.secret, ctfId, red.id, { name: "Crimson" }), 200).name).toBe("Crimson");
    const clash = await teamsApi.rename(world.trainer.secret, ctfId, red.id, { name: "BLUE" });
    expect(clash.status).toBe(409);
    expect(expectStatus(await teamsApi.rename(world.trainer.secret, ctfId, red.id, { name: "crimson" }), 200).name).toBe("crimson");

    const after = expectStatus(await teamsApi.removeMember(world.trainer.secret, ctfId, red.id, bob.memberId), 200);
    expect(after.members.map((m: { id: string }) => m.id)).toEqual([ann.memberId]);
    // The code Bob knew no longer lets him back in; Ann, still a member, sees the new one, which works.
    const gone = await teamsApi.join(bob.cookie, ctfId, { invite_code: red.invite_code });
    expect(gone.status).toBe(404);
    const fresh = expectStatus(await teamsApi.mine(ann.cookie, ctfId), 200).team.invite_code;
    expect(fresh).not.toBe(red.invite_code);
    expect(fresh).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expectStatus(await teamsApi.join(bob.cookie, ctfId, { invite_code: fresh }), 200);
    expectStatus(await teamsApi.removeMember(world.trainer.secret, ctfId, red.id, bob.memberId), 200);
    expect((await teamsApi.removeMember(world.trainer.secret, ctfId, red.id, bob.memberId)).status).toBe(404);
    expect((await teamsApi.removeMember(world.trainer.secret, ctfId, blue.id, ann.memberId)).status).toBe(404);

    expect(expectStatus(await teamsApi.remove(world.trainer.secret, ctfId, red.id), 200)).toEqual({ deleted: true, id: red.id });
    expect(await db().select().from(solves).where(eq(solves.ctfId, ctfId))).toHaveLength(0);
    const [annRow] = await db().select({ teamId: members.teamId }).from(members).where(eq(members.id, ann.memberId));
    expect(annRow.teamId).toBeNull();
    // Ann may form another team now.
    expectStatus(await teamsApi.create(ann.cookie, ctfId, { name: "Phoenix" }), 201);
  });

  it("another workspace's competition or team is a 404; an archived competition's teams are final (409)", async () => {
    const ctfId = await teamsCtf(db(), world.trainer);
    const ann = await playerOf(db(), world.trainer, ctfId);
    const team = expectStatus(await teamsApi.create(ann.cookie, ctfId, { name: "Mine" }), 201);
    const stranger = await createTrainer(db());
    expect((await teamsApi.list(stranger.secret, ctfId)).status).toBe(404);
    expect((await teamsApi.rename(stranger.secret, ctfId, team.id, { name: "Theirs" })).status).toBe(404);
    expect((await teamsApi.remove(stranger.secret, ctfId, team.id)).status).toBe(404);
    const otherCtf = await teamsCtf(db(), world.trainer);
    expect((await teamsApi.remove(world.trainer.secret, otherCtf, team.id)).status).toBe(404);

    await db().update(ctfs).set({ status: "archived" }).where(eq(ctfs.id, ctfId));
    expect((await teamsApi.rename(world.trainer.secret, ctfId, team.id, { name: "Late" })).status).toBe(409);
    expect((await teamsApi.remove(world.trainer.secret, ctfId, team.id)).status).toBe(409);
    expect(expectStatus(await teamsApi.list(world.trainer.secret, ctfId), 200).data).toHaveLength(1);
  });
});
