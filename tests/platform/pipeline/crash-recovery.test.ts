import { randomBytes } from "node:crypto";
import { inArray } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { webhookDeliveries, type Event } from "@/db/schema";
import { publishEvent } from "@/lib/platform/pipeline/channels/webhook/publish";
import { EmbeddedWorker } from "@/lib/platform/pipeline/executors/worker";
import { claimDueDeliveries, startAttempt } from "@/lib/platform/pipeline/channels/webhook/attempts";
import { createWebhook } from "@/lib/platform/webhooks/endpoints";
import { postOnce } from "@/lib/platform/pipeline/channels/webhook/http";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { createTrainer } from "../../helpers/fixtures";
import { receiverPool, verifyCompetition, type Receiver } from "../../helpers/receivers";
import { deliveriesOf, settledDeliveries, sleep } from "../../helpers/delivery";
import { stepRegistry } from "@/lib/registry/steps";

// A test lease (production: at least 10 s), which the attempt deadlines below fit inside (lib/kernel/config/config.ts).
const LEASE_MS = 5_000;

let database: TestDatabase;
const receivers = receiverPool();
const workers: EmbeddedWorker[] = [];

function newWorker(): EmbeddedWorker {
  const worker = new EmbeddedWorker(database, { steps: stepRegistry, concurrency: 4, pollMs: 100 });
  workers.push(worker);
  return worker;
}

beforeAll(async () => {
  vi.stubEnv("WEBHOOK_RETRY_STEP_MS", "300");
  vi.stubEnv("WORKER_LEASE_MS", String(LEASE_MS));
  vi.stubEnv("WEBHOOK_DEADLINE_MS", "2000");
  vi.stubEnv("RESEND_TIMEOUT_MS", "3000");
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

type Hook = { workspaceId: string; endpointId: string; secret: string; url: string };

async function endpoint(receiver: Receiver, workspaceId?: string): Promise<Hook> {
  const workspace = workspaceId ?? (await createTrainer(database.db)).workspaceId;
  const secret = `whsec_${randomBytes(18).toString("base64url")}`;
  const hook = await createWebhook(database.db, workspace, { url: receiver.url, events: [], secret }, "api");
  return { workspaceId: workspace, endpointId: hook.id, secret, url: receiver.url };
}

async function publishDeployed(workspaceId: string, title = "Crash CTF"): Promise<Event> {
  return database.db.transaction((tx) =>
    publishEvent(tx, workspaceId, "ctf.deployed", { managed_ctf_id: "mctf_crash", title, url: "https://ctf.example.test", is_public: false }),
  );
}

describe("a worker that dies mid-delivery", () => {
  it("leaves its claimed rows to another worker once the lease has expired; an attempt it had begun counts", async () => {
    const trainer = await createTrainer(database.db);
    const quiet = await receivers.start({ kind: "ok" }, "died-after-claiming");
    const halfway = await receivers.start({ kind: "ok" }, "died-while-calling");
    const quietHook = await endpoint(quiet, trainer.workspaceId);
    const halfwayHook = await endpoint(halfway, trainer.workspaceId);
    // One event, fanned out to both endpoints of the workspace: two deliveries.
    const quietEvent = await publishDeployed(trainer.workspaceId, "quiet");
    const [quietDelivery] = await deliveriesOf(database.db, trainer.workspaceId, quietHook.endpointId);
    const [halfwayDelivery] = await deliveriesOf(database.db, trainer.workspaceId, halfwayHook.endpointId);
    expect(quietDelivery.event_id).toBe(quietEvent.id);
    expect(halfwayDelivery.event_id).toBe(quietEvent.id);

    // The worker that is about to die claims both rows (this sets its lease)...
    const claimedAt = Date.now();
    const claimed = await claimDueDeliveries(database.db, 10);
    expect(claimed.sort()).toEqual([quietDelivery.id, halfwayDelivery.id].sort());
    const leases = await database.db
      .select({ id: webhookDeliveries.id, lockedUntil: webhookDeliveries.lockedUntil })
      .from(webhookDeliveries)
      .where(inArray(webhookDeliveries.id, claimed));
    const lockedUntil = Math.max(...leases.map((row) => row.lockedUntil!.getTime()));
    for (const row of leases) {
      expect(row.lockedUntil!.getTime() - claimedAt).toBeGreaterThan(LEASE_MS - 1_000);
      expect(row.lockedUntil!.getTime() - claimedAt).toBeLessThan(LEASE_MS + 1_000);
    }
    // ...begins an attempt of one (recorded as in flight before the POST), gets its POST to
    // the receiver, and dies before recording the answer.
    const begun = await startAttempt(database.db, halfwayDelivery.id);
    if ("outcome" in begun) throw new Error(`expected an attempt to begin, got ${begun.outcome}`);
    expect(begun.url).toBe(halfwayHook.url);
    expect((await postOnce(begun.url, begun.body, begun.headers)).ok).toBe(true);

    // Another instance cannot take the rows while the lease holds.
    expect(await claimDueDeliveries(database.db, 10)).toEqual([]);

    // A fresh worker starts; it leaves the leased rows alone until the lease expires. Nothing to
    // await here: it is an absence, watched for 1.5 s (15 of its polls) out of the lease's 5 s
    // that the test waits out below anyway, so the wait costs no time.
    await newWorker().start();
    await sleep(1_500);
    const [quietWaiting] = await deliveriesOf(database.db, trainer.workspaceId, quietHook.endpointId);
    const [halfwayWaiting] = await deliveriesOf(database.db, trainer.workspaceId, halfwayHook.endpointId);
    expect(quietWaiting).toMatchObject({ status: "pending", attempts: [] });
    expect(halfwayWaiting.status).toBe("pending");
    expect(halfwayWaiting.attempts.map((a) => [a.number, a.state])).toEqual([[1, "in_flight"]]);
    expect(quiet.requests).toHaveLength(0);
    expect(halfway.requests).toHaveLength(1);

    const [quietDone] = await settledDeliveries(database.db, trainer.workspaceId, quietHook.endpointId, 1, LEASE_MS + 5_000);
    const [halfwayDone] = await settledDeliveries(database.db, trainer.workspaceId, halfwayHook.endpointId, 1, 5_000);
    expect(quietDone.status).toBe("delivered");
    expect(quietDone.attempts).toEqual([expect.objectContaining({ number: 1, state: "completed", ok: true, status_code: 200 })]);
    expect(Date.parse(quietDone.attempts[0].started_at)).toBeGreaterThanOrEqual(lockedUntil - 50);
    // The dead worker's attempt counted (interrupted, no response recorded); the next is number 2.
    expect(halfwayDone.status).toBe("delivered");
    expect(halfwayDone.attempts).toEqual([
      expect.objectContaining({ number: 1, state: "interrupted", ok: false, status_code: null }),
      expect.objectContaining({ number: 2, state: "completed", ok: true, status_code: 200 }),
    ]);
    expect(Date.parse(halfwayDone.attempts[1].started_at)).toBeGreaterThanOrEqual(lockedUntil - 50);
    expect(quiet.requests).toHaveLength(1);
    expect(quiet.requests[0].at).toBeGreaterThanOrEqual(lockedUntil - 50);
    // The receiver the dead worker had reached gets the event again, with the same id and a
    // valid signature: delivery is at least once, and receivers deduplicate by event id.
    expect(halfway.requests).toHaveLength(2);
    expect(halfway.requests.map((r) => r.headers["x-service-event-id"])).toEqual([quietEvent.id, quietEvent.id]);
    for (const request of halfway.requests) expect(verifyCompetition(request.raw, request.headers, halfwayHook.secret)).toBe("valid");
  }, 30_000);
});

describe("nothing is lost while no worker runs", () => {
  it("delivers a row committed while no worker ran as soon as a worker starts", async () => {
    const receiver = await receivers.start({ kind: "ok" }, "committed-while-down");
    const hook = await endpoint(receiver);
    const event = await publishDeployed(hook.workspaceId);
    // No worker runs in this process: the row is simply there, pending, when one starts.
    expect(receiver.requests).toHaveLength(0);
    const [waiting] = await deliveriesOf(database.db, hook.workspaceId, hook.endpointId);
    expect(waiting).toMatchObject({ status: "pending", attempts: [] });

    const startedAt = performance.now();
    await newWorker().start();
    const [request] = await receiver.waitForRequests(1, 5_000);
    expect(request.perf - startedAt).toBeLessThan(3_000);
    expect(request.headers["x-service-event-id"]).toBe(event.id);
    const [delivered] = await settledDeliveries(database.db, hook.workspaceId, hook.endpointId);
    expect(delivered.status).toBe("delivered");
    expect(delivered.attempts).toHaveLength(1);
  });

  it("resumes a delivery's retries after a restart, counting the attempts already made", async () => {
    const receiver = await receivers.start({ kind: "failThenOk", failures: 1 }, "restart");
    const hook = await endpoint(receiver);
    const first = newWorker();
    await first.start();
    await publishDeployed(hook.workspaceId);
    await receiver.waitForRequests(1, 5_000);
    await first.stop();
    const [afterStop] = await deliveriesOf(database.db, hook.workspaceId, hook.endpointId);
    expect(afterStop.status).toBe("pending");
    expect(afterStop.attempts.map((a) => [a.number, a.ok])).toEqual([[1, false]]);

    await newWorker().start();
    const [done] = await settledDeliveries(database.db, hook.workspaceId, hook.endpointId);
    expect(done.status).toBe("delivered");
    expect(done.attempts.map((a) => [a.number, a.ok])).toEqual([
      [1, false],
      [2, true],
    ]);
    expect(receiver.requests).toHaveLength(2);
  });
});

describe("stop()", () => {
  it("waits for the attempts in flight to be recorded, then claims nothing more", async () => {
    const receiver = await receivers.start({ kind: "slow", delayMs: 1_000 }, "slow");
    const hook = await endpoint(receiver);
    const worker = newWorker();
    await worker.start();
    await publishDeployed(hook.workspaceId, "in flight");
    await receiver.waitForRequests(1, 5_000);

    const stopping = performance.now();
    await worker.stop();
    expect(performance.now() - stopping).toBeGreaterThanOrEqual(700);
    // Recorded by the time stop() resolved: no waiting here.
    const [recorded] = await deliveriesOf(database.db, hook.workspaceId, hook.endpointId);
    expect(recorded.status).toBe("delivered");
    expect(recorded.attempts).toEqual([expect.objectContaining({ number: 1, ok: true, status_code: 200 })]);
    expect(recorded.attempts[0].duration_ms).toBeGreaterThanOrEqual(900);

    // The stopped worker takes no new work; the row waits for the next worker.
    await publishDeployed(hook.workspaceId, "after stop");
    // An absence, so a wait: a loop still running would have been woken by the NOTIFY, or polled
    // (every 100 ms), and claimed and POSTed the row within this.
    await sleep(600);
    expect(receiver.requests).toHaveLength(1);
    const pending = (await deliveriesOf(database.db, hook.workspaceId, hook.endpointId)).filter((d) => d.status === "pending");
    expect(pending).toHaveLength(1);
    expect(pending[0].attempts).toHaveLength(0);

    await newWorker().start();
    await settledDeliveries(database.db, hook.workspaceId, hook.endpointId, 2);
    expect(receiver.requests).toHaveLength(2);
  });
});
