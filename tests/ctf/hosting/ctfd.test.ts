import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { rowsOf } from "@/db";
import { EmbeddedWorker } from "@/lib/platform/pipeline/executors/worker";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { startFakeCtfd, type FakeCtfd } from "../../helpers/fake-ctfd";
import { createTrainer } from "../../helpers/fixtures";
import { receiverPool, type Receiver } from "../../helpers/receivers";
import { challengeInput, client, ctfInput, expectCompetitionDelivery, expectStatus, requestsFor, settle, waitUntil, type Client } from "../../helpers/competition";
import { stepRegistry } from "@/lib/registry/steps";

/**
 * The CTFd host, against a local fake of CTFd's REST API: deploy, publish (challenge, static
 * flag, hints), unpublish, and what happens when CTFd is down or failing.
 */

let database: TestDatabase;
let worker: EmbeddedWorker;
let ctfd: FakeCtfd;
let api: Client;
let reader: Client;
let workspaceId: string;
let receiver: Receiver;
let secret: string;
const receivers = receiverPool();

beforeAll(async () => {
  ctfd = await startFakeCtfd();
  vi.stubEnv("CTFD_URL", ctfd.url);
  vi.stubEnv("CTFD_TOKEN", ctfd.token);
  vi.stubEnv("WEBHOOK_ALLOW_PRIVATE", "true");
  vi.stubEnv("WEBHOOK_RETRY_STEP_MS", "200");
  database = await createTestDatabase();
  worker = new EmbeddedWorker(database, { steps: stepRegistry, pollMs: 100 });
  await worker.start();
  const trainer = await createTrainer(database.db);
  workspaceId = trainer.workspaceId;
  api = client(trainer.secret);
  reader = client((await createTrainer(database.db, { email: trainer.email })).secret);
  receiver = await receivers.start({ kind: "ok" }, "ctfd-events");
  secret = `ctfd-hook-${randomBytes(12).toString("hex")}`;
  expectStatus(await api.createWebhook({ url: receiver.url, events: [], secret }), 201);
});

afterAll(async () => {
  await receivers.closeAll();
  await worker?.stop();
  await database?.drop();
  await ctfd?.close();
  vi.unstubAllEnvs();
});

/**
 * Waits until nothing more will be sent: every delivery settled and no step left to run. A
 * step stays pending until its handler, which publishes the events (their deliveries with
 * them), has committed; a step being retried counts too. Steps that have not yet come due and
 * never ran (a deployment window's end) do not.
 */
async function noPendingDeliveries(): Promise<void> {
  await waitUntil("every delivery settled and every due step finished", async () => {
    const result = await database.db.execute(
      sql`select (select count(*)::int from webhook_deliveries where workspace_id = ${workspaceId} and status = 'pending') as deliveries,
                 (select count(*)::int from scheduled_steps where workspace_id = ${workspaceId} and status = 'pending' and (run_at <= now() or attempts > 0)) as steps`,
    );
    const [pending] = rowsOf<{ deliveries: number; steps: number }>(result);
    return pending.deliveries === 0 && pending.steps === 0;
  });
}

/** Deliveries of `event` whose data names `id` (the competition or the challenge). */
function eventsAbout(event: string, key: string, id: string) {
  return requestsFor(receiver.requests, event).filter((request) => JSON.parse(request.raw.toString("utf8")).data[key] === id);
}

async function deployed(title: string) {
  const created = expectStatus(await api.createCtf(ctfInput({ title })), 201);
  expect(created.host).toBe("ctfd");
  expectStatus(await api.deploy(created.id), 202);
  return settle(() => reader.getCtf(created.id), "deploying");
}

describe("the fake CTFd answers as CTFd documents", () => {
  it("requires Authorization: Token …", async () => {
    const headers = { "content-type": "application/json" };
    const none = await fetch(`${ctfd.url}/api/v1/challenges`, { headers });
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ success: false });
    const wrong = await fetch(`${ctfd.url}/api/v1/challenges`, { headers: { ...headers, authorization: "Token nope" } });
    expect(wrong.status).toBe(403);
    const bearer = await fetch(`${ctfd.url}/api/v1/challenges`, { headers: { ...headers, authorization: `Bearer ${ctfd.token}` } });
    expect(bearer.status).toBe(403);
    const ok = await fetch(`${ctfd.url}/api/v1/challenges`, { headers: { ...headers, authorization: `Token ${ctfd.token}` } });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ success: true, data: [] });
    ctfd.calls.length = 0;
  });
});

describe("with CTFD_URL and CTFD_TOKEN set", () => {
  let ctfId: string;
  let challengeId: string;
  let platformId: number;
  const flag = "CTF{ctfd_static_flag_4e1d}";

  it("deploy → deployed with url = CTFD_URL, checked against CTFd with the token; one ctf.deployed", async () => {
    const ctf = await deployed("CTFd Cup");
    ctfId = ctf.id;
    expect(ctf).toMatchObject({ status: "deployed", host: "ctfd", url: ctfd.url, last_error: null });
    const checks = ctfd.callsTo("GET", "/api/v1/challenges");
    expect(checks.length).toBeGreaterThanOrEqual(1);
    for (const call of ctfd.calls) {
      expect(call.authorization).toBe(`Token ${ctfd.token}`);
      expect(call.contentType).toMatch(/^application\/json/);
    }

    await waitUntil("ctf.deployed", async () => eventsAbout("ctf.deployed", "managed_ctf_id", ctfId).length > 0);
    await noPendingDeliveries();
    const events = eventsAbout("ctf.deployed", "managed_ctf_id", ctfId);
    expect(events).toHaveLength(1);
    const body = expectCompetitionDelivery(events[0], secret, "ctf.deployed");
    expect(body.data).toEqual({ managed_ctf_id: ctfId, title: "CTFd Cup", url: ctfd.url, is_public: false });
  });

  it("publish → CTFd got the challenge (created hidden, then visible), its static flag in plaintext and its hints; platform_challenge_id is CTFd's id", async () => {
    const created = expectStatus(
      await api.createChallenge(
        ctfId,
        challengeInput({
          title: "Heap of Trouble",
          category: "binary exploitation",
          description: "Free it twice.",
          points: 350,
          flag,
          hints: [
            { text: "tcache", cost: 10 },
            { text: "double free", cost: 25 },
          ],
        }),
      ),
      201,
    );
    challengeId = created.id;
    expectStatus(await api.publish(ctfId, challengeId), 202);
    const published = await settle(() => reader.getChallenge(ctfId, challengeId), "publishing");
    expect(published).toMatchObject({ status: "published", last_error: null });

    expect(ctfd.challenges).toHaveLength(1);
    const [remote] = ctfd.challenges;
    expect(remote).toMatchObject({ name: "Heap of Trouble", category: "binary exploitation", value: 350, description: "Free it twice.", state: "visible", type: "standard" });
    platformId = remote.id;
    expect(ctfd.callsTo("POST", "/api/v1/challenges").map((call) => (call.body as { state: string }).state)).toEqual(["hidden"]);
    expect(published.platform_challenge_id).toBe(remote.id);
    expect(ctfd.flags).toEqual([{ id: expect.any(Number), challenge_id: remote.id, type: "static", content: flag, data: expect.any(String) }]);
    expect(ctfd.hints.map((h) => [h.challenge_id, h.content, h.cost])).toEqual([
      [remote.id, "tcache", 10],
      [remote.id, "double free", 25],
    ]);
    // The flag travelled only to CTFd: no read of ours shows it.
    expect(JSON.stringify(published)).not.toContain(flag);

    await waitUntil("challenge.published", async () => eventsAbout("challenge.published", "challenge_id", challengeId).length > 0);
    await noPendingDeliveries();
    const events = eventsAbout("challenge.published", "challenge_id", challengeId);
    expect(events).toHaveLength(1);
    const body = expectCompetitionDelivery(events[0], secret, "challenge.published");
    expect(body.data).toEqual({ managed_ctf_id: ctfId, challenge_id: challengeId, title: "Heap of Trouble", category: "binary exploitation", platform_challenge_id: remote.id });
  });

  it("unpublish → PATCH /api/v1/challenges/<id> {state: hidden}; publish again → visible, same CTFd challenge", async () => {
    expectStatus(await api.unpublish(ctfId, challengeId), 202);
    const unpublished = await settle(() => reader.getChallenge(ctfId, challengeId), "unpublishing");
    expect(unpublished.status).toBe("unpublished");
    const patches = ctfd.callsTo("PATCH", `/api/v1/challenges/${platformId}`);
    // Publish made it visible once its flag was in; unpublish hid it.
    expect(patches.map((call) => call.body)).toEqual([{ state: "visible" }, { state: "hidden" }]);
    expect(ctfd.challenges[0].state).toBe("hidden");
    await waitUntil("challenge.unpublished", async () => eventsAbout("challenge.unpublished", "challenge_id", challengeId).length > 0);
    const body = expectCompetitionDelivery(eventsAbout("challenge.unpublished", "challenge_id", challengeId)[0], secret, "challenge.unpublished");
    expect(body.data).toMatchObject({ challenge_id: challengeId, platform_challenge_id: platformId });

    expectStatus(await api.publish(ctfId, challengeId), 202);
    const again = await settle(() => reader.getChallenge(ctfId, challengeId), "publishing");
    expect(again).toMatchObject({ status: "published", platform_challenge_id: platformId });
    expect(ctfd.challenges).toHaveLength(1);
    expect(ctfd.challenges[0].state).toBe("visible");
    expect(ctfd.flags).toHaveLength(1);
  });
});

describe("when CTFd fails", () => {
  it("CTFd down at deploy → deploy_failed with last_error and no ctf.deployed; deploy again once it is back → deployed and one event", async () => {
    await ctfd.setMode("down");
    const ctf = await deployed("Outage Open");
    expect(ctf.status).toBe("deploy_failed");
    expect(ctf.last_error).toMatch(/CTFd/i);
    expect(ctf.url).toBeNull();
    await noPendingDeliveries();
    expect(eventsAbout("ctf.deployed", "managed_ctf_id", ctf.id)).toHaveLength(0);

    await ctfd.setMode("ok");
    expectStatus(await api.deploy(ctf.id), 202);
    const recovered = await settle(() => reader.getCtf(ctf.id), "deploying");
    expect(recovered).toMatchObject({ status: "deployed", url: ctfd.url, last_error: null });
    await waitUntil("ctf.deployed", async () => eventsAbout("ctf.deployed", "managed_ctf_id", ctf.id).length > 0);
    await noPendingDeliveries();
    expect(eventsAbout("ctf.deployed", "managed_ctf_id", ctf.id)).toHaveLength(1);
  });

  it("CTFd answering 500, or refusing the token, at deploy → deploy_failed naming the status", async () => {
    await ctfd.setMode("error");
    const failed = await deployed("Error Open");
    expect(failed.status).toBe("deploy_failed");
    expect(failed.last_error).toContain("500");
    await ctfd.setMode("ok");

    vi.stubEnv("CTFD_TOKEN", "not-the-token");
    try {
      expectStatus(await api.deploy(failed.id), 202);
      const refused = await settle(() => reader.getCtf(failed.id), "deploying");
      expect(refused.status).toBe("deploy_failed");
      expect(refused.last_error).toContain("403");
    } finally {
      vi.stubEnv("CTFD_TOKEN", ctfd.token);
    }
    await noPendingDeliveries();
    expect(eventsAbout("ctf.deployed", "managed_ctf_id", failed.id)).toHaveLength(0);
  });

  it("CTFd down (then 500) at publish → publish_failed, no challenge.published; publish again once it is back → published, one event, one CTFd challenge", async () => {
    const ctf = await deployed("Flaky Finals");
    const challenge = expectStatus(await api.createChallenge(ctf.id, challengeInput({ title: "Flaky", flag: "CTF{flaky_but_fine}" })), 201);
    const before = ctfd.challenges.length;

    await ctfd.setMode("down");
    expectStatus(await api.publish(ctf.id, challenge.id), 202);
    const down = await settle(() => reader.getChallenge(ctf.id, challenge.id), "publishing");
    expect(down).toMatchObject({ status: "publish_failed", platform_challenge_id: null });
    expect(down.last_error).toMatch(/CTFd/i);

    await ctfd.setMode("error");
    expectStatus(await api.publish(ctf.id, challenge.id), 202);
    const erroring = await settle(() => reader.getChallenge(ctf.id, challenge.id), "publishing");
    expect(erroring.status).toBe("publish_failed");
    expect(erroring.last_error).toContain("500");
    await noPendingDeliveries();
    expect(eventsAbout("challenge.published", "challenge_id", challenge.id)).toHaveLength(0);

    await ctfd.setMode("ok");
    expectStatus(await api.publish(ctf.id, challenge.id), 202);
    const published = await settle(() => reader.getChallenge(ctf.id, challenge.id), "publishing");
    expect(published).toMatchObject({ status: "published", last_error: null });
    const remote = ctfd.challenges.filter((c) => c.name === "Flaky");
    expect(remote).toHaveLength(1);
    expect(ctfd.challenges.length).toBe(before + 1);
    expect(published.platform_challenge_id).toBe(remote[0].id);
    expect(ctfd.flags.filter((f) => f.challenge_id === remote[0].id).map((f) => f.content)).toEqual(["CTF{flaky_but_fine}"]);
    await waitUntil("challenge.published", async () => eventsAbout("challenge.published", "challenge_id", challenge.id).length > 0);
    await noPendingDeliveries();
    const events = eventsAbout("challenge.published", "challenge_id", challenge.id);
    expect(events).toHaveLength(1);
    expect(expectCompetitionDelivery(events[0], secret, "challenge.published").data.platform_challenge_id).toBe(remote[0].id);
  });

  it("CTFd failing after the challenge was created (the flag refused) leaves no visible flagless challenge, and the retry does not duplicate it", async () => {
    const ctf = await deployed("Half Done");
    const challenge = expectStatus(await api.createChallenge(ctf.id, challengeInput({ title: "Half", flag: "CTF{half_way}" })), 201);

    ctfd.failRoutes(["POST /api/v1/flags"]);
    try {
      expectStatus(await api.publish(ctf.id, challenge.id), 202);
      const failed = await settle(() => reader.getChallenge(ctf.id, challenge.id), "publishing");
      expect(failed.status).toBe("publish_failed");
    } finally {
      ctfd.failRoutes([]);
    }
    // Players must never see a challenge they cannot solve.
    const flagless = ctfd.challenges.filter((c) => !c.deleted && c.state === "visible" && !ctfd.flags.some((f) => f.challenge_id === c.id));
    expect.soft(flagless.map((c) => c.name), "visible CTFd challenges without a flag after a failed publish").toEqual([]);

    expectStatus(await api.publish(ctf.id, challenge.id), 202);
    const published = await settle(() => reader.getChallenge(ctf.id, challenge.id), "publishing");
    expect(published.status).toBe("published");
    const remote = ctfd.challenges.filter((c) => c.name === "Half" && !c.deleted);
    expect(remote.map((c) => c.id), "CTFd challenges named Half after the retry").toEqual([published.platform_challenge_id]);
    expect(ctfd.flags.filter((f) => f.challenge_id === published.platform_challenge_id).map((f) => f.content)).toEqual(["CTF{half_way}"]);
  });
});

describe("the host is chosen when a competition is created", () => {
  it("with the variables unset, new competitions are built-in; a CTFd competition then fails to deploy with a clear error", async () => {
    const ctfdOne = expectStatus(await api.createCtf(ctfInput({ title: "Made on CTFd" })), 201);
    expect(ctfdOne.host).toBe("ctfd");
    vi.stubEnv("CTFD_URL", "");
    vi.stubEnv("CTFD_TOKEN", "");
    try {
      const builtin = expectStatus(await api.createCtf(ctfInput({ title: "Made built-in" })), 201);
      expect(builtin.host).toBe("builtin");
      const callsBefore = ctfd.calls.length;
      expectStatus(await api.deploy(ctfdOne.id), 202);
      const failed = await settle(() => reader.getCtf(ctfdOne.id), "deploying");
      expect(failed.status).toBe("deploy_failed");
      expect(failed.last_error).toMatch(/CTFD_URL/);
      expectStatus(await api.deploy(builtin.id), 202);
      expect((await settle(() => reader.getCtf(builtin.id), "deploying")).status).toBe("deployed");
      expect(ctfd.calls.length).toBe(callsBefore);
    } finally {
      vi.stubEnv("CTFD_URL", ctfd.url);
      vi.stubEnv("CTFD_TOKEN", ctfd.token);
    }
  });
});
