import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { challenges, ctfs } from "@/db/schema";
import { completePublish, completeUnpublish, publishChallenge, unpublishChallenge } from "@/lib/ctf/challenges/challenges";
import { completeCtfDeploy, deployCtf } from "@/lib/ctf/competitions/competitions";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { startFakeCtfd, type FakeCtfd } from "../../helpers/fake-ctfd";
import { createTrainer, type Trainer } from "../../helpers/fixtures";
import { challengeInput, client, ctfInput, expectStatus, type Client } from "../../helpers/competition";

/**
 * A competition's and a challenge's settings reach CTFd where its API has them, recorded by
 * the local fake: on deploy (and on a later change) the mode, team size and freeze as CTFd's
 * configs (`PATCH /api/v1/configs`: `user_mode`, `team_size`, `freeze`); on publish a dynamic
 * challenge as CTFd's dynamic type, the attempt cap as `max_attempts`, the prerequisites as
 * `requirements` (CTFd's ids) and the tags (`POST /api/v1/tags`).
 */

let database: TestDatabase;
let ctfd: FakeCtfd;
let trainer: Trainer;
let api: Client;
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

async function deployed(overrides: Record<string, unknown> = {}) {
  const created = expectStatus(await api.createCtf(ctfInput({ starts_at: new Date(Date.now() + HOUR).toISOString(), ends_at: new Date(Date.now() + 24 * HOUR).toISOString(), ...overrides })), 201);
  expect(created.host).toBe("ctfd");
  await deployCtf(database.db, trainer.workspaceId, created.id);
  await completeCtfDeploy(database.db, created.id);
  const [ctf] = await database.db.select().from(ctfs).where(eq(ctfs.id, created.id));
  expect([ctf.status, ctf.lastError]).toEqual(["deployed", null]);
  return created.id as string;
}

async function published(ctfId: string, overrides: Record<string, unknown>) {
  const created = expectStatus(await api.createChallenge(ctfId, challengeInput(overrides)), 201);
  expectStatus(await api.publish(ctfId, created.id), 202);
  await completePublish(database.db, created.id);
  const view = expectStatus(await api.getChallenge(ctfId, created.id), 200);
  expect([view.status, view.last_error]).toEqual(["published", null]);
  return { id: created.id as string, platformId: view.platform_challenge_id as number };
}

describe("the fake CTFd checks these settings as CTFd does", () => {
  const send = (method: string, path: string, body: unknown) =>
    fetch(`${ctfd.url}/api/v1${path}`, { method, headers: { "content-type": "application/json", authorization: `Token ${ctfd.token}` }, body: JSON.stringify(body) });

  it("configs take strings only (CTFd's ConfigSchema), naming the key; tags and prerequisites need an existing challenge", async () => {
    const bad = await send("PATCH", "/configs", { user_mode: "teams", team_size: 4 });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ success: false, key: "team_size" });
    expect((await send("POST", "/tags", { challenge_id: 9999, value: "x" })).status).toBe(400);
    const created = await send("POST", "/challenges", { name: "n", category: "c", type: "standard", value: 1, requirements: { prerequisites: [9999] } });
    expect(created.status).toBe(400);
    expect((await send("POST", "/challenges", { name: "n", category: "c", type: "dynamic", value: 1 })).status).toBe(400);
  });
});

describe("the competition's settings as CTFd's configs", () => {
  it("deploy sends user_mode, team_size and freeze (Unix seconds, as strings); individual with no limit and no freeze unsets them", async () => {
    const freeze = new Date(Date.now() + 20 * HOUR);
    freeze.setMilliseconds(0);
    await deployed({ mode: "teams", team_size_max: 4, freeze_at: freeze.toISOString() });
    expect(ctfd.callsTo("PATCH", "/api/v1/configs").at(-1)!.body).toEqual({ user_mode: "teams", team_size: "4", freeze: String(freeze.getTime() / 1000) });
    expect(ctfd.configs).toMatchObject({ user_mode: "teams", team_size: "4", freeze: String(freeze.getTime() / 1000) });

    await deployed();
    expect(ctfd.configs).toMatchObject({ user_mode: "users", team_size: "", freeze: "" });
  });

  it("a change of mode, team size or freeze while deployed is sent at once; another change sends nothing", async () => {
    const ctfId = await deployed();
    const before = ctfd.callsTo("PATCH", "/api/v1/configs").length;
    expectStatus(await api.updateCtf(ctfId, { title: "Renamed", description: "Only words." }), 200);
    expect(ctfd.callsTo("PATCH", "/api/v1/configs")).toHaveLength(before);

    const freeze = new Date(Date.now() + 10 * HOUR);
    freeze.setMilliseconds(0);
    expectStatus(await api.updateCtf(ctfId, { mode: "teams", team_size_max: 3, freeze_at: freeze.toISOString() }), 200);
    expect(ctfd.callsTo("PATCH", "/api/v1/configs")).toHaveLength(before + 1);
    expect(ctfd.configs).toMatchObject({ user_mode: "teams", team_size: "3", freeze: String(freeze.getTime() / 1000) });
    expectStatus(await api.updateCtf(ctfId, { freeze_at: null }), 200);
    expect(ctfd.configs.freeze).toBe("");
  });

  it("CTFd failing on the change → 503 naming it, and nothing changed here either", async () => {
    const ctfId = await deployed({ team_size_max: 5 });
    ctfd.failRoutes(["PATCH /api/v1/configs"]);
    try {
      const refused = await api.updateCtf(ctfId, { team_size_max: 2, title: "Not saved" });
      expect(refused.status).toBe(503);
      expect(refused.body.error.message).toMatch(/hosting platform failed.*500/);
    } finally {
      ctfd.failRoutes([]);
    }
    expect(expectStatus(await api.getCtf(ctfId), 200)).toMatchObject({ team_size_max: 5, title: "Spring CTF" });
  });
});

describe("a challenge's settings on CTFd", () => {
  it("dynamic scoring, attempt cap, prerequisites and tags reach CTFd on publish", async () => {
    const ctfId = await deployed();
    const opener = await published(ctfId, { title: "Opener", flag: "CTF{opener}" });
    const remoteOpener = ctfd.challenges.find((c) => c.id === opener.platformId)!;
    expect(remoteOpener).toMatchObject({ type: "standard", value: 120, max_attempts: 0, requirements: { prerequisites: [] } });

    const locked = await published(ctfId, {
      title: "Decaying",
      flag: "CTF{decaying}",
      scoring: { type: "dynamic", initial: 500, minimum: 100, decay: 20 },
      max_attempts: 5,
      requires: [opener.id],
      tags: ["web", "hard-ish"],
    });
    const remote = ctfd.challenges.find((c) => c.id === locked.platformId)!;
    expect(remote).toMatchObject({
      type: "dynamic",
      value: 500,
      initial: 500,
      minimum: 100,
      decay: 20,
      function: "logarithmic",
      max_attempts: 5,
      requirements: { prerequisites: [opener.platformId] },
      state: "visible",
    });
    expect(ctfd.tags.filter((t) => t.challenge_id === remote.id).map((t) => t.value)).toEqual(["web", "hard-ish"]);
    // Tags go in while the challenge is still hidden, before the PATCH that shows it.
    const tagCall = ctfd.calls.findLastIndex((c) => c.method === "POST" && c.path === "/api/v1/tags");
    const shown = ctfd.calls.findLastIndex((c) => c.method === "PATCH" && c.path === `/api/v1/challenges/${remote.id}` && c.body?.state === "visible");
    expect(tagCall).toBeLessThan(shown);
  });

  it("a challenge whose prerequisite is not on CTFd yet: publish → 409 naming it; published first, it goes", async () => {
    const ctfId = await deployed();
    const first = expectStatus(await api.createChallenge(ctfId, challengeInput({ title: "Not yet", flag: "CTF{first}" })), 201);
    const second = expectStatus(await api.createChallenge(ctfId, challengeInput({ title: "After it", flag: "CTF{second}", requires: [first.id] })), 201);
    const refused = await api.publish(ctfId, second.id);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain('"Not yet"');
    expect(expectStatus(await api.getChallenge(ctfId, second.id), 200).status).toBe("draft");

    await publishChallenge(database.db, trainer.workspaceId, ctfId, first.id);
    await completePublish(database.db, first.id);
    const after = await published(ctfId, { title: "Now it goes", flag: "CTF{third}", requires: [first.id] });
    const firstId = expectStatus(await api.getChallenge(ctfId, first.id), 200).platform_challenge_id;
    expect(ctfd.challenges.find((c) => c.id === after.platformId)!.requirements).toEqual({ prerequisites: [firstId] });
  });

  it("the publish step itself refuses a prerequisite that left CTFd in between (publish_failed, nothing created)", async () => {
    const ctfId = await deployed();
    const opener = await published(ctfId, { title: "Opener", flag: "CTF{gone}" });
    const second = expectStatus(await api.createChallenge(ctfId, challengeInput({ title: "Late", flag: "CTF{late}", requires: [opener.id] })), 201);
    expectStatus(await api.publish(ctfId, second.id), 202);
    await database.db.update(challenges).set({ platformChallengeId: null }).where(eq(challenges.id, opener.id));
    const count = ctfd.challenges.length;
    await completePublish(database.db, second.id);
    const failed = expectStatus(await api.getChallenge(ctfId, second.id), 200);
    expect(failed.status).toBe("publish_failed");
    expect(failed.last_error).toContain('"Opener"');
    expect(ctfd.challenges).toHaveLength(count);
  });

  it("published again after an edit, the edited settings go with it", async () => {
    const ctfId = await deployed();
    const challenge = await published(ctfId, { title: "Editable", flag: "CTF{edit}", scoring: { type: "dynamic", initial: 400, minimum: 50, decay: 10 } });
    await unpublishChallenge(database.db, trainer.workspaceId, ctfId, challenge.id);
    await completeUnpublish(database.db, challenge.id);
    expectStatus(await api.updateChallenge(ctfId, challenge.id, { title: "Edited", max_attempts: 2, scoring: { type: "dynamic", initial: 300, minimum: 50, decay: 5 } }), 200);
    await publishChallenge(database.db, trainer.workspaceId, ctfId, challenge.id);
    await completePublish(database.db, challenge.id);
    expect(ctfd.challenges.find((c) => c.id === challenge.platformId)).toMatchObject({ name: "Edited", state: "visible", max_attempts: 2, initial: 300, decay: 5, type: "dynamic" });
  });
});
