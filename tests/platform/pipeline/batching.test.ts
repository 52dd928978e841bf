import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { webhookAttempts, webhookDeliveries } from "@/db/schema";
import { publishEvent } from "@/lib/platform/pipeline/channels/webhook/publish";
import { EmbeddedWorker } from "@/lib/platform/pipeline/executors/worker";
import { MAX_ATTEMPTS } from "@/lib/platform/pipeline/outbox/schedule";
import { AttemptRecorder, messageOf, releaseAttempts, startAttempt, startDueAttempts } from "@/lib/platform/pipeline/channels/webhook/attempts";
import { createWebhook } from "@/lib/platform/webhooks/endpoints";
import { postOnce } from "@/lib/platform/pipeline/channels/webhook/http";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { createTrainer } from "../../helpers/fixtures";
import { receiverPool, verifyCompetition, type RecordedRequest, type Receiver } from "../../helpers/receivers";
import { deliveriesOf, settledDeliveries, waitUntil } from "../../helpers/delivery";
import { stepRegistry } from "@/lib/registry/steps";

/*
 * The embedded worker's batch path: one statement claims due deliveries and starts an attempt
 * of each (at most so many per endpoint), the POSTs go over kept-alive connections, and the
 * answers are recorded together. Claiming between concurrent pools is in claiming.test.ts
 * (PostgreSQL only).
 */

const LEASE_MS = 10_000;

// Which attempts the worker gave back: the spy passes every call through.
vi.mock("@/lib/platform/pipeline/channels/webhook/attempts", async (importOriginal) => {
  const original = await importOriginal<typeof import("@/lib/platform/pipeline/channels/webhook/attempts")>();
  return { ...original, releaseAttempts: vi.fn(original.releaseAttempts) };
});

let database: TestDatabase;
const receivers = receiverPool();
const workers: EmbeddedWorker[] = [];

beforeAll(async () => {
  vi.stubEnv("WEBHOOK_RETRY_STEP_MS", "300");
  vi.stubEnv("WORKER_LEASE_MS", String(LEASE_MS));
  vi.stubEnv("WEBHOOK_ALLOW_PRIVATE", "true");
  database = await createTestDatabase();
});

afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.stop()));
});

afterAll(async () => {
  await receivers.closeAll();
  await database?.drop();
  vi.unstubAllEnvs();
});

type Hook = { workspaceId: string; endpointId: string; secret: string };

async function endpoint(receiver: Receiver, workspaceId?: string): Promise<Hook> {
  const workspace = workspaceId ?? (await createTrainer(database.db)).workspaceId;
  const secret = `whsec_${randomBytes(18).toString("base64url")}`;
  const hook = await createWebhook(database.db, workspace, { url: receiver.url, events: [], secret }, "api");
  return { workspaceId: workspace, endpointId: hook.id, secret };
}

/** `count` events in one transaction: one pending delivery each per endpoint of the workspace. */
async function publish(workspaceId: string, count: number, title = "Batch"): Promise<string[]> {
  return database.db.transaction(async (tx) => {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const event = await publishEvent(tx, workspaceId, "ctf.deployed", { managed_ctf_id: "mctf_batch", title: `${title} ${i}`, url: "https://ctf.example.test", is_public: false });
      ids.push(event.id);
    }
    return ids;
  });
}

async function pendingIds(endpointId: string): Promise<string[]> {
  const rows = await database.db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, "pending")));
  return rows.map((row) => row.id);
}

/** The most exchanges a receiver had open at once (arrival of the request → end of the exchange). */
function maxOverlap(requests: RecordedRequest[]): number {
  const edges = requests.flatMap((r) => [
    [r.perf, 1],
    [r.closedPerf ?? Infinity, -1],
  ]);
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let open = 0;
  let most = 0;
  for (const [, step] of edges) {
    open += step;
    most = Math.max(most, open);
  }
  return most;
}

describe("startDueAttempts", () => {
  it("claims at most `limit` rows and `perEndpoint` (or the endpoint's room) per endpoint, and starts an attempt of each in the same statement", async () => {
    const trainer = await createTrainer(database.db);
    const a = await endpoint(await receivers.start({ kind: "ok" }, "claim-a"), trainer.workspaceId);
    const b = await endpoint(await receivers.start({ kind: "ok" }, "claim-b"), trainer.workspaceId);
    const eventIds = await publish(trainer.workspaceId, 5); // 5 deliveries to each endpoint

    // b already has 2 attempts in this worker: room for 1 more of its rows.
    const first = await startDueAttempts(database.db, { limit: 10, perEndpoint: 3, room: new Map([[b.endpointId, 1]]) });
    expect(first.dropped).toEqual([]);
    const byEndpoint = (endpointId: string) => first.started.filter((s) => s.endpointId === endpointId);
    expect(byEndpoint(a.endpointId)).toHaveLength(3);
    expect(byEndpoint(b.endpointId)).toHaveLength(1);

    // Each is counted, leased, and recorded in flight, with its signed message ready.
    const ids = first.started.map((s) => s.deliveryId);
    const rows = await database.db.select().from(webhookDeliveries).where(inArray(webhookDeliveries.id, ids));
    for (const row of rows) {
      expect(row.attempts).toBe(1);
      expect(row.lockedUntil!.getTime()).toBeGreaterThan(Date.now() + LEASE_MS - 2_000);
    }
    const attempts = await database.db.select().from(webhookAttempts).where(inArray(webhookAttempts.deliveryId, ids));
    expect(attempts).toHaveLength(4);
    expect(attempts.every((attempt) => attempt.state === "in_flight" && attempt.number === 1)).toBe(true);
    for (const started of first.started) {
      const attempt = attempts.find((row) => row.id === started.attemptId)!;
      expect(attempt.deliveryId).toBe(started.deliveryId);
      expect(Math.abs(attempt.startedAt.getTime() - Date.now())).toBeLessThan(10_000);
      // The message is signed when the POST goes out, with that time.
      const at = new Date(Date.now() + 1_500);
      const { body, headers } = messageOf(started, at);
      const secret = started.endpointId === a.endpointId ? a.secret : b.secret;
      expect(verifyCompetition(Buffer.from(body), lowerCase(headers), secret)).toBe("valid");
      expect(eventIds).toContain(headers["X-Service-Event-Id"]);
      expect(JSON.parse(body).delivered_at).toBe(Math.floor(at.getTime() / 1000));
    }

    // The limit holds across endpoints; leased rows are not claimed again.
    const second = await startDueAttempts(database.db, { limit: 2, perEndpoint: 10 });
    expect(second.started).toHaveLength(2);
    expect(second.started.map((s) => s.deliveryId).filter((id) => ids.includes(id))).toEqual([]);
    const rest = await startDueAttempts(database.db, { limit: 100, perEndpoint: 100 });
    expect(rest.started).toHaveLength(10 - 4 - 2);
    expect(await startDueAttempts(database.db, { limit: 100, perEndpoint: 100 })).toEqual({ started: [], dropped: [] });
  });

  it("does not let a busy endpoint's backlog hide another endpoint's rows", async () => {
    const trainer = await createTrainer(database.db);
    const busy = await endpoint(await receivers.start({ kind: "ok" }, "backlog-busy"));
    await publish(busy.workspaceId, 30); // older rows, all for one endpoint
    const other = await endpoint(await receivers.start({ kind: "ok" }, "backlog-other"), trainer.workspaceId);
    await publish(trainer.workspaceId, 1);

    const due = await startDueAttempts(database.db, { limit: 4, perEndpoint: 4, room: new Map([[busy.endpointId, 0]]) });
    expect(due.started.map((s) => s.endpointId)).toEqual([other.endpointId]);
    // Release what this test claimed for the next tests.
    await database.db.delete(webhookDeliveries).where(inArray(webhookDeliveries.endpointId, [busy.endpointId, other.endpointId]));
  });

  it("marks a dead worker's attempt interrupted, drops a delivery whose attempts are used up, and leaves one under a live attempt alone", async () => {
    const trainer = await createTrainer(database.db);
    const hook = await endpoint(await receivers.start({ kind: "ok" }, "leftovers"), trainer.workspaceId);
    await publish(trainer.workspaceId, 3);
    const [resumed, exhausted, live] = (await deliveriesOf(database.db, trainer.workspaceId, hook.endpointId)).map((d) => d.id);

    // Each got an attempt recorded in flight by a worker that then died (or is still posting).
    for (const id of [resumed, exhausted, live]) {
      const begun = await startAttempt(database.db, id);
      expect("outcome" in begun).toBe(false);
    }
    await database.db.update(webhookDeliveries).set({ attempts: MAX_ATTEMPTS }).where(eq(webhookDeliveries.id, exhausted));
    // The lease of the dead worker's rows ran out; the live one's attempt is fresh, though its row's lease is over too.
    const past = sql`now() - ${LEASE_MS + 1_000} * interval '1 millisecond'`;
    await database.db.update(webhookAttempts).set({ startedAt: past }).where(inArray(webhookAttempts.deliveryId, [resumed, exhausted]));
    await database.db.update(webhookDeliveries).set({ lockedUntil: past }).where(inArray(webhookDeliveries.id, [resumed, exhausted, live]));

    const due = await startDueAttempts(database.db, { limit: 10, perEndpoint: 10 });
    expect(due.started.map((s) => [s.deliveryId, s.number])).toEqual([[resumed, 2]]);
    expect(due.dropped).toEqual([{ deliveryId: exhausted, endpointId: hook.endpointId, attempt: MAX_ATTEMPTS }]);

    const log = await deliveriesOf(database.db, trainer.workspaceId, hook.endpointId);
    const of = (id: string) => log.find((d) => d.id === id)!;
    expect(of(resumed).attempts.map((a) => [a.number, a.state])).toEqual([
      [1, "interrupted"],
      [2, "in_flight"],
    ]);
    expect(of(exhausted).status).toBe("dropped");
    expect(of(exhausted).attempts.map((a) => a.state)).toEqual(["interrupted"]);
    expect(of(live).status).toBe("pending");
    expect(of(live).attempts.map((a) => a.state)).toEqual(["in_flight"]);
  });
});

describe("AttemptRecorder", () => {
  it("records many answers together, in the order given, and skips an attempt another worker took over", async () => {
    const trainer = await createTrainer(database.db);
    const hook = await endpoint(await receivers.start({ kind: "ok" }, "recorder"), trainer.workspaceId);
    await publish(trainer.workspaceId, 4);
    const { started } = await startDueAttempts(database.db, { limit: 10, perEndpoint: 10 });
    expect(started).toHaveLength(4);
    const [delivered, retried, lastTry, takenOver] = started;
    await database.db.update(webhookDeliveries).set({ attempts: MAX_ATTEMPTS }).where(eq(webhookDeliveries.id, lastTry.deliveryId));
    await database.db.update(webhookAttempts).set({ number: MAX_ATTEMPTS }).where(eq(webhookAttempts.id, lastTry.attemptId));
    // Another worker found this attempt after the lease ran out and marked it interrupted.
    await database.db.update(webhookAttempts).set({ state: "interrupted" }).where(eq(webhookAttempts.id, takenOver.attemptId));

    const recorder = new AttemptRecorder(database.db);
    const ok = { ok: true, statusCode: 200, error: null, excerpt: "ok", durationMs: 3 };
    const failed = { ok: false, statusCode: 503, error: "HTTP 503", excerpt: "busy\u0000", durationMs: 4 };
    const postedAt = new Date(Date.now() + 2_000);
    const outcomes = await Promise.all([
      recorder.record({ ...delivered, postedAt }, ok),
      recorder.record({ ...retried, postedAt }, failed),
      recorder.record({ ...lastTry, number: MAX_ATTEMPTS, postedAt }, failed),
      recorder.record({ ...takenOver, postedAt }, ok),
    ]);
    expect(outcomes).toEqual([
      { outcome: "delivered", attempt: 1 },
      { outcome: "retry", attempt: 1, retryInMs: 300, error: "HTTP 503" },
      { outcome: "dropped", attempt: MAX_ATTEMPTS, error: "HTTP 503" },
      { outcome: "skipped" },
    ]);
    const log = await deliveriesOf(database.db, trainer.workspaceId, hook.endpointId);
    const of = (id: string) => log.find((d) => d.id === id)!;
    expect(of(delivered.deliveryId)).toMatchObject({ status: "delivered", next_attempt_at: null });
    expect(of(delivered.deliveryId).attempts).toEqual([expect.objectContaining({ number: 1, state: "completed", ok: true, status_code: 200, duration_ms: 3 })]);
    // The attempt's time is when its POST went out (what its message was signed with).
    expect(Date.parse(of(delivered.deliveryId).attempts[0].started_at)).toBe(postedAt.getTime());
    expect(of(retried.deliveryId).status).toBe("pending");
    expect(Date.parse(of(retried.deliveryId).next_attempt_at!)).toBeGreaterThan(Date.now() - 1_000);
    expect(of(retried.deliveryId).attempts).toEqual([expect.objectContaining({ state: "completed", ok: false, status_code: 503, response_excerpt: "busy" })]);
    expect(of(lastTry.deliveryId).status).toBe("dropped");
    expect(of(takenOver.deliveryId).status).toBe("pending");
    expect(of(takenOver.deliveryId).attempts.map((a) => a.state)).toEqual(["interrupted"]);
    const [lease] = await database.db.select({ lockedUntil: webhookDeliveries.lockedUntil }).from(webhookDeliveries).where(eq(webhookDeliveries.id, retried.deliveryId));
    expect(lease.lockedUntil).toBeNull();
    // Nothing of this test is left for the next ones to claim.
    await database.db.delete(webhookDeliveries).where(eq(webhookDeliveries.endpointId, hook.endpointId));
  });
});

describe("releaseAttempts", () => {
  it("gives back attempts never POSTed: no attempt recorded or counted, the row due again at once", async () => {
    const trainer = await createTrainer(database.db);
    const hook = await endpoint(await receivers.start({ kind: "ok" }, "release"), trainer.workspaceId);
    await publish(trainer.workspaceId, 2);
    const { started } = await startDueAttempts(database.db, { limit: 10, perEndpoint: 10 });
    expect(started).toHaveLength(2);
    // The second was taken over meanwhile (marked interrupted): it is not given back.
    await database.db.update(webhookAttempts).set({ state: "interrupted" }).where(eq(webhookAttempts.id, started[1].attemptId));
    expect(await releaseAttempts(database.db, started)).toBe(1);
    const log = await deliveriesOf(database.db, trainer.workspaceId, hook.endpointId);
    const released = log.find((d) => d.id === started[0].deliveryId)!;
    expect(released).toMatchObject({ status: "pending", attempts: [] });
    const [row] = await database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, started[0].deliveryId));
    expect(row).toMatchObject({ attempts: 0, lockedUntil: null });
    const again = await startDueAttempts(database.db, { limit: 10, perEndpoint: 10 });
    expect(again.started.filter((s) => s.endpointId === hook.endpointId).map((s) => [s.deliveryId, s.number])).toEqual([[started[0].deliveryId, 1]]);
    await database.db.delete(webhookDeliveries).where(eq(webhookDeliveries.endpointId, hook.endpointId));
  });
});

describe("the worker's fan-out", () => {
  it("keeps at most WEBHOOK_ENDPOINT_CONCURRENCY attempts in flight to one endpoint, while other endpoints go on", async () => {
    const slow = await receivers.start({ kind: "slow", delayMs: 300 }, "per-endpoint-slow");
    const fast = await receivers.start({ kind: "ok" }, "per-endpoint-fast");
    const slowHook = await endpoint(slow);
    const fastHook = await endpoint(fast);
    await publish(slowHook.workspaceId, 16); // 8 rounds of 2 at 300 ms: about 2.4 s to drain

    const worker = new EmbeddedWorker(database, { steps: stepRegistry, concurrency: 8, pollMs: 100, endpointConcurrency: 2 });
    workers.push(worker);
    await worker.start();
    await slow.waitForRequests(2, 5_000);
    // With the slow endpoint's backlog still waiting, a delivery to another endpoint goes out
    // without waiting for it (the time bound is loose for a loaded machine; the order is the point).
    const publishedAt = performance.now();
    await publish(fastHook.workspaceId, 1);
    const [arrived] = await fast.waitForRequests(1, 5_000);
    expect(arrived.perf - publishedAt).toBeLessThan(5_000);
    expect(await pendingIds(slowHook.endpointId)).not.toHaveLength(0);

    const done = await settledDeliveries(database.db, slowHook.workspaceId, slowHook.endpointId, 16, 30_000);
    expect(done.every((d) => d.status === "delivered" && d.attempts.length === 1)).toBe(true);
    expect(slow.requests).toHaveLength(16);
    expect(arrived.perf).toBeLessThan(slow.requests[15].perf);
    expect(maxOverlap(slow.requests)).toBe(2);
  });

  it("sends a burst to one endpoint over kept-alive connections, each event once, signed", async () => {
    const receiver = await receivers.start({ kind: "ok" }, "keep-alive");
    const hook = await endpoint(receiver);
    const worker = new EmbeddedWorker(database, { steps: stepRegistry, concurrency: 8, pollMs: 100, endpointConcurrency: 4 });
    workers.push(worker);
    await worker.start();
    const eventIds = await publish(hook.workspaceId, 60);

    await receiver.waitForRequests(60, 20_000);
    await waitUntil("every delivery recorded", async () => (await pendingIds(hook.endpointId)).length === 0, 10_000);
    expect(receiver.requests.map((r) => r.headers["x-service-event-id"]).sort()).toEqual([...eventIds].sort());
    for (const request of receiver.requests) expect(verifyCompetition(request.raw, request.headers, hook.secret)).toBe("valid");
    // Connections are reused request after request: a handful for 60 POSTs (one per slot of the
    // endpoint, give or take one whose socket was not back in the pool yet), not one each.
    expect(receiver.connections).toBeGreaterThan(0);
    expect(receiver.connections).toBeLessThanOrEqual(8);
  });

  it("gives back, unsent, the attempts it claimed ahead when it stops", async () => {
    // A short deadline leaves a long window inside the 10 s lease: the lane claims far ahead.
    vi.stubEnv("WEBHOOK_DEADLINE_MS", "1000");
    const receiver = await receivers.start({ kind: "slow", delayMs: 100 }, "stop-releases");
    const hook = await endpoint(receiver);
    const release = vi.mocked(releaseAttempts);
    release.mockClear();
    const worker = new EmbeddedWorker(database, { steps: stepRegistry, concurrency: 4, pollMs: 100, endpointConcurrency: 1 });
    vi.stubEnv("WEBHOOK_DEADLINE_MS", "");
    workers.push(worker);
    await worker.start();
    await publish(hook.workspaceId, 20);
    // After a first answer the lane knows its pace (~100 ms) and claims ahead of its one slot.
    await receiver.waitForRequests(3, 10_000);
    await worker.stop();

    const log = await deliveriesOf(database.db, hook.workspaceId, hook.endpointId);
    expect(log).toHaveLength(20);
    const delivered = log.filter((d) => d.status === "delivered");
    // Every POST the receiver got is a recorded attempt; every other delivery is as if never claimed.
    expect(receiver.requests).toHaveLength(delivered.length);
    expect(delivered.every((d) => d.attempts.length === 1 && d.attempts[0].ok)).toBe(true);
    expect(log.filter((d) => d.status !== "delivered").every((d) => d.status === "pending" && d.attempts.length === 0)).toBe(true);
    const given = release.mock.calls.flatMap(([, attempts]) => attempts);
    expect(given.length).toBeGreaterThan(0);
    const rows = await database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, hook.endpointId));
    for (const row of rows.filter((r) => r.status === "pending")) expect(row).toMatchObject({ attempts: 0, lockedUntil: null });
    await database.db.delete(webhookDeliveries).where(eq(webhookDeliveries.endpointId, hook.endpointId));
  });

  it("gives back the attempts a lane claimed ahead when its receiver turns slow, before their lease could run out mid-POST", async () => {
    // Quick for the first 3 requests, then 1.3 s each: longer than the 1 s a claimed attempt may
    // wait here (lease 10 s − deadline 8 s − 1 s margin).
    let served = 0;
    const arrivals: string[] = [];
    const server = http.createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        arrivals.push(String(req.headers["x-service-event-id"]));
        const delay = ++served <= 3 ? 0 : 1_300;
        setTimeout(() => res.writeHead(200).end("ok"), delay);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
      const { workspaceId } = await createTrainer(database.db);
      const hook = await createWebhook(database.db, workspaceId, { url, events: [], secret: `whsec_${randomBytes(18).toString("base64url")}` }, "api");
      const release = vi.mocked(releaseAttempts);
      release.mockClear();
      const worker = new EmbeddedWorker(database, { steps: stepRegistry, concurrency: 4, pollMs: 100, endpointConcurrency: 2 });
      workers.push(worker);
      await worker.start();
      await publish(workspaceId, 3, "quick");
      await waitUntil("the quick ones", async () => arrivals.length >= 3, 5_000);
      const slow = await publish(workspaceId, 6, "slow");

      const settled = await settledDeliveries(database.db, workspaceId, hook.id, 9, 30_000, 200);
      expect(settled.every((d) => d.status === "delivered")).toBe(true);
      // Released attempts left no trace: one attempt each, number 1, and each event POSTed once.
      expect(settled.every((d) => d.attempts.length === 1 && d.attempts[0].number === 1)).toBe(true);
      expect(arrivals).toHaveLength(9);
      expect(new Set(arrivals).size).toBe(9);
      expect(arrivals.slice(3).sort()).toEqual([...slow].sort());
      expect(release.mock.calls.flatMap(([, attempts]) => attempts).length).toBeGreaterThan(0);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }, 40_000);

  it("closes the connection after a failed answer, so a retry starts on a new one", async () => {
    const receiver = await receivers.start({ kind: "failThenOk", failures: 1 }, "fresh-after-failure");
    const url = receiver.url;
    const headers = { "Content-Type": "application/json" };
    expect((await postOnce(url, "{}", headers)).statusCode).toBe(500);
    expect((await postOnce(url, "{}", headers)).statusCode).toBe(200);
    expect((await postOnce(url, "{}", headers)).statusCode).toBe(200);
    // The failure's connection was closed; the two successes shared one.
    expect(receiver.connections).toBe(2);
  });
});

function lowerCase(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}
