import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { ctfs } from "@/db/schema";
import { archiveCtf } from "@/lib/ctf/play/archive";
import { builtinHostWorld } from "../../helpers/builtin-host";
import { playerOf, runningCtf } from "../../helpers/samples/play";
import { client, ctfInput, expectStatus, playableCompetition, sameOrigin, submitFlagAs, unlockHintAs, type Client } from "../../helpers/competition";
import { call } from "../../helpers/http";
import * as teamsRoute from "@/app/api/c/[ctf_id]/teams/route";

/**
 * A competition's settings through the API: `mode` (individual or teams), `team_size_max` and
 * `freeze_at`. They round-trip; `freeze_at` must come after `starts_at` (the stored one when a
 * PATCH leaves it out; it may come after `ends_at`); `mode` is fixed once the competition has
 * started (409), while the team size and the freeze may still change.
 */

const world = builtinHostWorld();

let api: Client;

beforeEach(() => {
  api = client(world.trainer.secret);
});

/** The 422's field errors, as `{field: message}`. */
function fieldErrors(result: { status: number; body: any }): Record<string, string> {
  expect(result.status, JSON.stringify(result.body)).toBe(422);
  return Object.fromEntries((result.body.error.fields as { field: string; message: string }[]).map((f) => [f.field, f.message]));
}

describe("settings round-trip", () => {
  it("defaults: individual, no team size limit, never frozen", async () => {
    const created = expectStatus(await api.createCtf(ctfInput()), 201);
    expect(created).toMatchObject({ mode: "individual", team_size_max: null, freeze_at: null });
  });

  it("teams mode, a team size and a freeze (any offset, answered in UTC) are stored, read, listed and changed", async () => {
    const created = expectStatus(await api.createCtf(ctfInput({ mode: "teams", team_size_max: 4, freeze_at: "2027-03-02T20:00:00+02:00" })), 201);
    expect(created).toMatchObject({ mode: "teams", team_size_max: 4, freeze_at: "2027-03-02T18:00:00.000Z" });
    expect(expectStatus(await api.getCtf(created.id), 200)).toEqual(created);
    expect(expectStatus(await api.listCtfs(), 200).data.find((row: { id: string }) => row.id === created.id)).toEqual(created);

    const updated = expectStatus(await api.updateCtf(created.id, { mode: "individual", team_size_max: null, freeze_at: null }), 200);
    expect(updated).toMatchObject({ mode: "individual", team_size_max: null, freeze_at: null });
    // Left out of a PATCH, a setting keeps its value.
    const again = expectStatus(await api.updateCtf(created.id, { mode: "teams", team_size_max: 2, freeze_at: "2027-03-02T12:00:00Z" }), 200);
    const titled = expectStatus(await api.updateCtf(created.id, { title: "Renamed" }), 200);
    expect(titled).toMatchObject({ title: "Renamed", mode: "teams", team_size_max: 2, freeze_at: again.freeze_at });
  });

  it("a freeze after ends_at is kept (the board then never freezes during the window)", async () => {
    const created = expectStatus(await api.createCtf(ctfInput({ freeze_at: "2027-04-01T00:00:00Z" })), 201);
    expect(created.freeze_at).toBe("2027-04-01T00:00:00.000Z");
  });
});

describe("validation", () => {
  it("an unknown mode, a team size of 0 or over 100, a freeze that is not a time → 422 at the field", async () => {
    expect(fieldErrors(await api.createCtf(ctfInput({ mode: "squads" })))).toHaveProperty(["mode"]);
    expect(fieldErrors(await api.createCtf(ctfInput({ team_size_max: 0 })))).toHaveProperty(["team_size_max"]);
    expect(fieldErrors(await api.createCtf(ctfInput({ team_size_max: 101 })))).toHaveProperty(["team_size_max"]);
    expect(fieldErrors(await api.createCtf(ctfInput({ team_size_max: 2.5 })))).toHaveProperty(["team_size_max"]);
    expect(fieldErrors(await api.createCtf(ctfInput({ freeze_at: "tomorrow" })))).toHaveProperty(["freeze_at"]);
  });

  it("freeze_at at or before starts_at → 422 on freeze_at, on create and against the stored start on PATCH", async () => {
    expect(fieldErrors(await api.createCtf(ctfInput({ freeze_at: "2027-03-01T09:00:00Z" }))).freeze_at).toMatch(/after starts_at/);
    expect(fieldErrors(await api.createCtf(ctfInput({ freeze_at: "2027-02-01T09:00:00Z" })))).toHaveProperty(["freeze_at"]);
    expect(expectStatus(await api.listCtfs(), 200).pagination.total).toBe(0);

    const created = expectStatus(await api.createCtf(ctfInput()), 201);
    expect(fieldErrors(await api.updateCtf(created.id, { freeze_at: "2027-03-01T08:00:00Z" }))).toHaveProperty(["freeze_at"]);
    const frozen = expectStatus(await api.updateCtf(created.id, { freeze_at: "2027-03-02T18:00:00Z" }), 200);
    // Moving the start past the stored freeze is refused too, naming the freeze.
    expect(fieldErrors(await api.updateCtf(created.id, { starts_at: "2027-03-02T19:00:00Z" }))).toHaveProperty(["freeze_at"]);
    // Both at once, consistent: accepted.
    const moved = expectStatus(await api.updateCtf(created.id, { starts_at: "2027-03-02T19:00:00Z", freeze_at: "2027-03-02T20:00:00Z" }), 200);
    expect(moved).toMatchObject({ starts_at: "2027-03-02T19:00:00.000Z", freeze_at: "2027-03-02T20:00:00.000Z" });
    expect(frozen.freeze_at).toBe("2027-03-02T18:00:00.000Z");
  });
});

describe("after the start", () => {
  it("changing mode → 409 with a clear message; the same mode again, the team size and the freeze still change", async () => {
    const ctfId = await runningCtf(world.database.db, world.trainer);
    const refused = await api.updateCtf(ctfId, { mode: "teams" });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(/has started: its mode stays individual/);
    expect(expectStatus(await api.getCtf(ctfId), 200).mode).toBe("individual");

    const same = expectStatus(await api.updateCtf(ctfId, { mode: "individual", team_size_max: 3, freeze_at: new Date(Date.now() + 3_600_000).toISOString() }), 200);
    expect(same).toMatchObject({ mode: "individual", team_size_max: 3 });
    expect(expectStatus(await api.updateCtf(ctfId, { freeze_at: null }), 200).freeze_at).toBeNull();
  });

  it("a deployed competition whose window has not begun may still change mode; a stopped one that ran may not", async () => {
    const HOUR = 3_600_000;
    const later = await runningCtf(world.database.db, world.trainer, { startsAt: new Date(Date.now() + HOUR), endsAt: new Date(Date.now() + 2 * HOUR) });
    expect(expectStatus(await api.updateCtf(later, { mode: "teams" }), 200).mode).toBe("teams");

    const ran = await runningCtf(world.database.db, world.trainer);
    expectStatus(await api.stop(ran), 200);
    expect((await api.updateCtf(ran, { mode: "teams" })).status).toBe(409);
  });

  it("moving starts_at into the future after play does not reopen mode: a solve, an unlock, a wrong flag or a team each keep it (409)", async () => {
    const HOUR = 3_600_000;
    const future = new Date(Date.now() + HOUR).toISOString();
    const played = async (play: (ctfId: string, challengeId: string, cookie: string) => Promise<unknown>) => {
      const { ctfId, challengeId } = await playableCompetition(world.database.db, world.trainer);
      await play(ctfId, challengeId, (await playerOf(world.database.db, world.trainer, ctfId)).cookie);
      expectStatus(await api.updateCtf(ctfId, { starts_at: future, freeze_at: null }), 200);
      return ctfId;
    };
    for (const ctfId of [
      await played((ctfId, challengeId, cookie) => submitFlagAs(cookie, ctfId, challengeId, "CTF{warm}")),
      await played((ctfId, challengeId, cookie) => unlockHintAs(cookie, ctfId, challengeId, 2)),
      await played((ctfId, challengeId, cookie) => submitFlagAs(cookie, ctfId, challengeId, "CTF{nope}")),
    ]) {
      const refused = await api.updateCtf(ctfId, { mode: "teams" });
      expect(refused.status, JSON.stringify(refused.body)).toBe(409);
      expect(refused.body.error.message).toMatch(/played .*already: its mode stays individual/);
      expect(expectStatus(await api.getCtf(ctfId), 200).mode).toBe("individual");
    }

    // Teams formed before the start: back to individual is refused too.
    const later = await runningCtf(world.database.db, world.trainer, { startsAt: new Date(Date.now() + HOUR), endsAt: new Date(Date.now() + 2 * HOUR) });
    expectStatus(await api.updateCtf(later, { mode: "teams" }), 200);
    const ann = await playerOf(world.database.db, world.trainer, later);
    expectStatus(await call(teamsRoute.POST, `/api/c/${later}/teams`, { method: "POST", params: { ctf_id: later }, body: { name: "Early birds" }, headers: { ...sameOrigin, cookie: ann.cookie } }), 201);
    expect((await api.updateCtf(later, { mode: "individual" })).status).toBe(409);
  });

  it("an archived competition → 409 (nothing changes once archived)", async () => {
    const ctfId = await runningCtf(world.database.db, world.trainer);
    await archiveCtf(world.database.db, world.trainer.workspaceId, ctfId);
    expect((await world.database.db.select({ status: ctfs.status }).from(ctfs).where(eq(ctfs.id, ctfId)))[0].status).toBe("archived");
    expect((await api.updateCtf(ctfId, { mode: "teams" })).status).toBe(409);
  });
});
