import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { emailMessages, webhookDeliveries } from "@/db/schema";
import { publishEvent } from "@/lib/platform/pipeline/channels/webhook/publish";
import { EmbeddedWorker } from "@/lib/platform/pipeline/executors/worker";
import { msUntilNextDue } from "@/lib/platform/pipeline/outbox/claim";
import { MAX_ATTEMPTS } from "@/lib/platform/pipeline/outbox/schedule";
import { attemptDelivery, claimDueDeliveries, startAttempt, type StartedAttempt } from "@/lib/platform/pipeline/channels/webhook/attempts";
import { createWebhook } from "@/lib/platform/webhooks/endpoints";
import { postOnce } from "@/lib/platform/pipeline/channels/webhook/http";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { createTrainer } from "../../helpers/fixtures";
import { receiverPool, type Receiver } from "../../helpers/receivers";
import { deliveriesOf, settledDeliveries, waitUntil } from "../../helpers/delivery";
import { stepRegistry } from "@/lib/registry/steps";

/*
 * Attempts are counted before the POST (an attempt whose worker died still counts, so a
 * receiver never gets more than MAX_ATTEMPTS POSTs for one delivery), and the worker wakes
 * when a retry falls due instead of on its next poll.
 */

// A test lease (production: at least 10 s), which the attempt deadlines below fit inside (lib/kernel/config/config.ts).
const LEASE_MS = 5_000;
const STEP_MS = 400;

let database: TestDatabase;
const receivers = receiverPool();
const workers: EmbeddedWorker[] = [];

beforeAll(async () => {
  vi.stubEnv("WEBHOOK_RETRY_STEP_MS", String(STEP_MS));
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

/** The default poll interval (1 s), so only waking on the due time can keep a 400 ms schedule. */
async function startWorker(): Promise<EmbeddedWorker> {
  const worker = new EmbeddedWorker(database, { steps: stepRegistry, concurrency: 4, pollMs: 1_000 });
  workers.push(worker);
  await worker.start();
  return worker;
}

/** A workspace with one endpoint at `receiver`, and one published event: one pending delivery. */
async function pendingDelivery(receiver: Receiver) {
  const { workspaceId } = await createTrainer(database.db);
  const secret = `whsec_${randomBytes(18).toString("base64url")}`;
  const endpoint = await createWebhook(database.db, workspaceId, { url: receiver.url, events: [], secret }, "api");
  await database.db.transaction((tx) =>
    publishEvent(tx, workspaceId, "ctf.deployed", { managed_ctf_id: "mctf_attempts", title: "Attempts", url: "https://ctf.example.test", is_public: false }),
  );
  const [delivery] = await deliveriesOf(database.db, workspaceId, endpoint.id);
  return { workspaceId, endpointId: endpoint.id, deliveryId: delivery.id };
}

/** A worker that records the attempt, gets its POST to the receiver, then dies before recording the answer. */
async function dieMidAttempt(deliveryId: string): Promise<StartedAttempt> {
  const started = await startAttempt(database.db, deliveryId);
  if ("outcome" in started) throw new Error(`expected an attempt to start, got ${started.outcome}`);
  await postOnce(started.url, started.body, started.headers);
  return started;
}

describe("a worker killed mid-attempt", () => {
  it("has used that attempt: at most 3 POSTs reach the receiver in all, and the log shows every one", async () => {
    // Two deliveries, both to receivers that always fail; the worker dies on attempt 1 of
    // the first and on attempt 3 (the last) of the second.
    const early = await receivers.start({ kind: "status", status: 500 }, "dies-on-first");
    const late = await receivers.start({ kind: "status", status: 500 }, "dies-on-last");
    const first = await pendingDelivery(early);
    const last = await pendingDelivery(late);

    // The dying worker claimed the first row; the second already had two failed attempts.
    expect(await claimDueDeliveries(database.db, 10)).toContain(first.deliveryId);
    for (let i = 1; i < MAX_ATTEMPTS; i++) expect(await attemptDelivery(database.db, last.deliveryId)).toMatchObject({ outcome: "retry", attempt: i });
    expect(late.requests).toHaveLength(MAX_ATTEMPTS - 1);

    expect((await dieMidAttempt(first.deliveryId)).number).toBe(1);
    expect((await dieMidAttempt(last.deliveryId)).number).toBe(MAX_ATTEMPTS);
    expect(early.requests).toHaveLength(1);
    expect(late.requests).toHaveLength(MAX_ATTEMPTS);

    // Counted already, shown as in flight while the dead worker's lease holds; nobody else may take the rows.
    const [firstNow] = await deliveriesOf(database.db, first.workspaceId, first.endpointId);
    const [lastNow] = await deliveriesOf(database.db, last.workspaceId, last.endpointId);
    expect(firstNow.attempts.map((a) => [a.number, a.state])).toEqual([[1, "in_flight"]]);
    expect(lastNow.attempts.map((a) => [a.number, a.state])).toEqual([
      [1, "completed"],
      [2, "completed"],
      [3, "in_flight"],
    ]);
    const [counted] = await database.db.select({ attempts: webhookDeliveries.attempts }).from(webhookDeliveries).where(eq(webhookDeliveries.id, first.deliveryId));
    expect(counted.attempts).toBe(1);
    expect(await claimDueDeliveries(database.db, 10)).toEqual([]);

    // Once the lease has run out the log calls them interrupted, before any worker returns.
    await waitUntil(
      "the dead worker's lease to run out",
      async () => (await deliveriesOf(database.db, first.workspaceId, first.endpointId))[0].attempts[0].state === "interrupted",
      LEASE_MS + 5_000,
      100,
    );

    // A new worker reclaims both rows.
    await startWorker();
    const [firstDone] = await settledDeliveries(database.db, first.workspaceId, first.endpointId, 1, 10_000);
    const [lastDone] = await settledDeliveries(database.db, last.workspaceId, last.endpointId, 1, 10_000);

    // First: the interrupted attempt counted, so only two more POSTs were made.
    expect(firstDone.status).toBe("dropped");
    expect(firstDone.attempts.map((a) => [a.number, a.state, a.status_code])).toEqual([
      [1, "interrupted", null],
      [2, "completed", 500],
      [3, "completed", 500],
    ]);
    expect(firstDone.attempts[0].error).toMatch(/interrupted/);
    expect(early.requests).toHaveLength(MAX_ATTEMPTS);

    // Last: all three were used; the worker drops it without a fourth POST.
    expect(lastDone.status).toBe("dropped");
    expect(lastDone.attempts.map((a) => [a.number, a.state])).toEqual([
      [1, "completed"],
      [2, "completed"],
      [3, "interrupted"],
    ]);
    expect(late.requests).toHaveLength(MAX_ATTEMPTS);

    // Every POST a receiver saw is in the log (one attempt each), and no more.
    expect(firstDone.attempts).toHaveLength(early.requests.length);
    expect(lastDone.attempts).toHaveLength(late.requests.length);
  }, 40_000);
});

describe("retries follow the schedule, not the poll interval", () => {
  it("with a 400 ms step and a failing receiver, the gaps are about 400 and 800 ms although the worker polls every second", async () => {
    const receiver = await receivers.start({ kind: "status", status: 503 }, "schedule");
    await startWorker();
    const { workspaceId, endpointId } = await pendingDelivery(receiver);
    const requests = await receiver.waitForRequests(MAX_ATTEMPTS, 15_000);
    const [gap1, gap2] = [requests[1].perf - requests[0].perf, requests[2].perf - requests[1].perf];
    // Behaviour, not speed: never before the due time, well before the 1 s poll, and the
    // second wait (2 × step) longer than the first (1 × step).
    expect(gap1).toBeGreaterThanOrEqual(STEP_MS - 50);
    expect(gap1).toBeLessThan(900);
    expect(gap2).toBeGreaterThanOrEqual(Math.max(gap1, 2 * STEP_MS - 50));
    const [done] = await settledDeliveries(database.db, workspaceId, endpointId);
    expect(done.status).toBe("dropped");
    expect(done.attempts.map((a) => a.state)).toEqual(["completed", "completed", "completed"]);
  });
});

describe("msUntilNextDue", () => {
  it("is the time until the earliest waiting row of any queue falls due, or null when none waits", async () => {
    // Earlier tests' deliveries are all settled by now. Their drops queued endpoint-health mails
    // to the owner (docs/webhooks.md, "Endpoint health"), which their worker may or may not have
    // sent before it stopped: the only rows that may still wait are those, settled here.
    const mails = await database.db.select({ kind: emailMessages.kind, status: emailMessages.status }).from(emailMessages);
    expect(mails.filter((mail) => mail.kind === "webhook_failing").length).toBeGreaterThan(0);
    expect(mails.filter((mail) => mail.status === "queued" && mail.kind !== "webhook_failing")).toEqual([]);
    await database.db.update(emailMessages).set({ status: "sent" }).where(eq(emailMessages.status, "queued"));
    expect(await msUntilNextDue(database.db)).toBeNull();
    const receiver = await receivers.start({ kind: "ok" }, "next-due");
    const { deliveryId } = await pendingDelivery(receiver);
    await database.db
      .update(webhookDeliveries)
      .set({ nextAttemptAt: sql`now() + interval '5 seconds'` })
      .where(eq(webhookDeliveries.id, deliveryId));
    const ms = await msUntilNextDue(database.db);
    expect(ms).toBeGreaterThan(4_000);
    expect(ms).toBeLessThanOrEqual(5_000);
    // A row held by a worker comes back when its lease ends, whichever is later.
    await database.db
      .update(webhookDeliveries)
      .set({ lockedUntil: sql`now() + interval '8 seconds'` })
      .where(eq(webhookDeliveries.id, deliveryId));
    expect(await msUntilNextDue(database.db)).toBeGreaterThan(7_000);
  });
});
