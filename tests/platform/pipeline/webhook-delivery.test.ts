import { randomBytes } from "node:crypto";
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { events, webhookDeliveries } from "@/db/schema";
import type { Event } from "@/db/schema";
import type { EventData } from "@/lib/platform/pipeline/channels/webhook/events";
import { publishEvent } from "@/lib/platform/pipeline/channels/webhook/publish";
import { EmbeddedWorker } from "@/lib/platform/pipeline/executors/worker";
import { createTestResultWebhook, createWebhook } from "@/lib/platform/webhooks/endpoints";
import type { DeliveryView } from "@/lib/platform/webhooks/schemas";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { createTrainer } from "../../helpers/fixtures";
import {
  receiverPool,
  sortedCompactJson,
  verifyCertification,
  verifyCompetition,
  type Behaviour,
  type Receiver,
  type RecordedRequest,
} from "../../helpers/receivers";
import { backoffGaps, deliveriesOf, settledDeliveries } from "../../helpers/delivery";
import { stepRegistry } from "@/lib/registry/steps";

/** Linear backoff step for this file: attempt 2 after 1 × step, attempt 3 after 2 × step. */
const STEP_MS = 500;
/**
 * How late a due retry may start (worker poll 50 ms, claim, and the load of CI, which runs the
 * PGlite and PostgreSQL suites side by side on 2 cores: 1412 ms was seen against 1400). Never
 * early is the guarantee; the ratio below keeps the shape linear.
 */
const LATE_MS = 900;
/**
 * A receiver's deadline in the failure cases (WEBHOOK_DEADLINE_MS; production and the other
 * cases here: the spec's 8 s, see http-guard.test.ts). The hanging receiver is cut off at it
 * three times. A healthy delivery made meanwhile must arrive within the first half of it, 2 s:
 * the same time its own delivery is given (it took ~0.5 s on a loaded 2-core machine).
 */
const DEADLINE_MS = 4_000;

const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?[+-]\d{2}:\d{2}$/;

const testCompleted: EventData<"test.completed"> = {
  test: "SEC-101",
  score: 87.5,
  correct: 35,
  questions: 40,
  recipient: { email: "zoe@example.test", name: "Zoë Ünicode ✓" },
  domains: [
    { id: 1, name: "Networks", percent: 90, correct: 18, questions: 20 },
    { id: 2, name: "Crypto — basics", percent: 85, correct: 17, questions: 20 },
  ],
};

// Keys deliberately out of order: the competition body must still come out sorted.
const ctfDeployed: EventData<"ctf.deployed"> = {
  url: "https://ctf.example.test/spring",
  title: "Spring CTF — «finale» ✓",
  managed_ctf_id: "mctf_01",
  is_public: true,
};

type Published = "test.completed" | "ctf.deployed";

let database: TestDatabase;
let worker: EmbeddedWorker;
const receivers = receiverPool();

beforeAll(async () => {
  vi.stubEnv("WEBHOOK_RETRY_STEP_MS", String(STEP_MS));
  // Test results retry on their own schedule (a day by default): here the competition's shape, 3 attempts, step then 2 × step.
  vi.stubEnv("TEST_RESULT_RETRY_SCHEDULE", `${STEP_MS}ms,${2 * STEP_MS}ms`);
  vi.stubEnv("WORKER_LEASE_MS", "10000");
  vi.stubEnv("WEBHOOK_ALLOW_PRIVATE", "true");
  database = await createTestDatabase();
  worker = new EmbeddedWorker(database, { steps: stepRegistry, concurrency: 8, pollMs: 50 });
  await worker.start();
});

afterAll(async () => {
  // Receivers first: an attempt still in flight then ends at once instead of at its deadline.
  await receivers.closeAll();
  await worker?.stop();
  await database?.drop();
  vi.unstubAllEnvs();
});

type Hook = { workspaceId: string; endpointId: string; secret: string };

/** A competition endpoint: the competition events it subscribes to (empty: all of them). */
async function endpoint(receiver: Receiver, subscribed: Exclude<Published, "test.completed">[] = [], workspaceId?: string): Promise<Hook> {
  const workspace = workspaceId ?? (await createTrainer(database.db)).workspaceId;
  const secret = `whsec_${randomBytes(18).toString("base64url")}`;
  const hook = await createWebhook(database.db, workspace, { url: receiver.url, events: subscribed, secret }, "api");
  return { workspaceId: workspace, endpointId: hook.id, secret };
}

/** A test-result endpoint: test.completed only, with a generated secret. */
async function testResultEndpoint(receiver: Receiver, workspaceId?: string): Promise<Hook> {
  const workspace = workspaceId ?? (await createTrainer(database.db)).workspaceId;
  const hook = await createTestResultWebhook(database.db, workspace, { url: receiver.url });
  return { workspaceId: workspace, endpointId: hook.id, secret: hook.secret };
}

/** The endpoint kind that receives `type`. */
const endpointFor = (receiver: Receiver, type: Published) => (type === "test.completed" ? testResultEndpoint(receiver) : endpoint(receiver));

async function publish(workspaceId: string, ...types: Published[]): Promise<Event[]> {
  return database.db.transaction(async (tx) => {
    const published: Event[] = [];
    for (const type of types) {
      published.push(
        type === "test.completed"
          ? await publishEvent(tx, workspaceId, "test.completed", testCompleted)
          : await publishEvent(tx, workspaceId, "ctf.deployed", ctfDeployed),
      );
    }
    return published;
  });
}

function eventIdOf(request: RecordedRequest): string | undefined {
  return (request.headers["x-webhook-event-id"] ?? request.headers["x-service-event-id"]) as string | undefined;
}

function verify(request: RecordedRequest, secret: string) {
  return request.headers["x-webhook-event"] ? verifyCertification(request.raw, request.headers, secret) : verifyCompetition(request.raw, request.headers, secret);
}

describe("receiver-side verifiers (sanity)", () => {
  const secret = "whsec_sanity_secret_value";
  const raw = Buffer.from('{"a":1}', "utf8");
  const hex = "3b1f1e0b4d1e5a1f0fbb8a3a1e2f3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d";

  it("reject a missing, malformed or wrong signature", () => {
    expect(verifyCompetition(raw, {}, secret)).toBe("missing");
    expect(verifyCompetition(raw, { "x-service-signature": hex }, secret)).toBe("malformed");
    expect(verifyCompetition(raw, { "x-service-signature": `sha256=${hex}` }, secret)).toBe("mismatch");
    expect(verifyCompetition(raw, { "x-service-signature": "sha256=zz" }, secret)).toBe("mismatch");
    expect(verifyCertification(raw, {}, secret)).toBe("missing");
    expect(verifyCertification(raw, { "x-webhook-signature": hex }, secret)).toBe("mismatch");
    expect(verifyCertification(raw, { "x-webhook-signature": "abc" }, secret)).toBe("mismatch");
  });
});

describe("wire formats, checked by receivers written from the specs", () => {
  it("delivers test.completed in the certification format, signed over the raw bytes", async () => {
    const receiver = await receivers.start({ kind: "ok" }, "certification");
    const hook = await testResultEndpoint(receiver);
    const before = Date.now();
    const [event] = await publish(hook.workspaceId, "test.completed");
    const [request] = await receiver.waitForRequests(1);
    const after = Date.now();

    expect(request.method).toBe("POST");
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["x-webhook-event"]).toBe("test.completed");
    expect(request.headers["x-webhook-event-id"]).toBe(event.id);
    expect(request.headers["x-webhook-signature"]).toMatch(/^[0-9a-f]{64}$/);
    expect(verifyCertification(request.raw, request.headers, hook.secret)).toBe("valid");
    expect(verifyCertification(request.raw, request.headers, `${hook.secret}x`)).toBe("mismatch");
    const tampered = Buffer.from(request.raw.toString("utf8").replace("87.5", "97.5"), "utf8");
    expect(verifyCertification(tampered, request.headers, hook.secret)).toBe("mismatch");

    const body = JSON.parse(request.raw.toString("utf8"));
    expect(Object.keys(body).sort()).toEqual(["event", "payload", "sent_at"]);
    expect(body.event).toBe("test.completed");
    expect(body.payload).toEqual({ ...testCompleted, event_id: event.id });
    expect(body.payload.event_id).toBe(request.headers["x-webhook-event-id"]);
    for (const domain of body.payload.domains) expect(Object.keys(domain).sort()).toEqual(["correct", "id", "name", "percent", "questions"]);
    expect(body.sent_at).toMatch(ISO_WITH_OFFSET);
    expect(Date.parse(body.sent_at)).toBeGreaterThanOrEqual(before - 1_000);
    expect(Date.parse(body.sent_at)).toBeLessThanOrEqual(after + 1_000);

    const [delivery] = await settledDeliveries(database.db, hook.workspaceId, hook.endpointId);
    expect(delivery).toMatchObject({ status: "delivered", event_id: event.id, event: "test.completed", next_attempt_at: null });
    expect(delivery.attempts).toEqual([expect.objectContaining({ number: 1, ok: true, status_code: 200, error: null })]);
    expect(receiver.requests).toHaveLength(1);
  });

  it("delivers ctf.deployed in the competition format: sorted compact body, sha256= signature, integer delivered_at", async () => {
    const receiver = await receivers.start({ kind: "ok" }, "competition");
    const hook = await endpoint(receiver);
    const before = Date.now();
    const [event] = await publish(hook.workspaceId, "ctf.deployed");
    const [request] = await receiver.waitForRequests(1);
    const after = Date.now();

    expect(request.method).toBe("POST");
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["user-agent"]).toBe("Service-Webhook/1");
    expect(request.headers["x-service-event"]).toBe("ctf.deployed");
    expect(request.headers["x-service-event-id"]).toBe(event.id);
    expect(request.headers["x-service-signature"]).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(verifyCompetition(request.raw, request.headers, hook.secret)).toBe("valid");
    expect(verifyCompetition(request.raw, request.headers, `${hook.secret}x`)).toBe("mismatch");
    const bare = { ...request.headers, "x-service-signature": String(request.headers["x-service-signature"]).slice("sha256=".length) };
    expect(verifyCompetition(request.raw, bare, hook.secret)).toBe("malformed");

    const text = request.raw.toString("utf8");
    const body = JSON.parse(text);
    // Compact, keys sorted at every depth: re-serialising with sorted keys gives the same bytes.
    expect(Buffer.from(sortedCompactJson(body), "utf8").equals(request.raw)).toBe(true);
    expect(Object.keys(body)).toEqual(["data", "delivered_at", "event"]);
    expect(Object.keys(body.data)).toEqual(["is_public", "managed_ctf_id", "title", "url"]);
    expect(body.event).toBe("ctf.deployed");
    expect(body.data).toEqual(ctfDeployed);
    expect(Number.isInteger(body.delivered_at)).toBe(true);
    expect(body.delivered_at).toBeGreaterThanOrEqual(Math.floor(before / 1000));
    expect(body.delivered_at).toBeLessThanOrEqual(Math.ceil(after / 1000));
    expect(Number(request.headers["content-length"])).toBe(request.raw.length);

    const [delivery] = await settledDeliveries(database.db, hook.workspaceId, hook.endpointId);
    expect(delivery).toMatchObject({ status: "delivered", event_id: event.id, event: "ctf.deployed" });
    expect(delivery.attempts).toEqual([expect.objectContaining({ number: 1, ok: true, status_code: 200 })]);
  });
});

describe("subscriptions and transactions", () => {
  it("sends a competition endpoint only the competition events it subscribed to (empty list: all of them), test.completed only to test-result endpoints", async () => {
    const trainer = await createTrainer(database.db);
    const onlyCtf = await receivers.start({ kind: "ok" }, "only-ctf");
    const onlyMember = await receivers.start({ kind: "ok" }, "only-member");
    const testResults = await receivers.start({ kind: "ok" }, "test-results");
    const every = await receivers.start({ kind: "ok" }, "every");
    const elsewhere = await receivers.start({ kind: "ok" }, "other-workspace");
    const ctfHook = await endpoint(onlyCtf, ["ctf.deployed"], trainer.workspaceId);
    const memberHook = await createWebhook(database.db, trainer.workspaceId, { url: onlyMember.url, events: ["member.joined"] }, "api");
    const testHook = await testResultEndpoint(testResults, trainer.workspaceId);
    const everyHook = await endpoint(every, [], trainer.workspaceId);
    const elsewhereHook = await endpoint(elsewhere, []);
    const elsewhereTestHook = await testResultEndpoint(elsewhere);

    const [completed, deployed] = await publish(trainer.workspaceId, "test.completed", "ctf.deployed");
    await settledDeliveries(database.db, trainer.workspaceId, everyHook.endpointId, 1);
    await settledDeliveries(database.db, trainer.workspaceId, ctfHook.endpointId, 1);
    await settledDeliveries(database.db, trainer.workspaceId, testHook.endpointId, 1);
    // Delivery rows are written with the event, and every one is settled: no request can still come.
    expect(await deliveriesOf(database.db, elsewhereHook.workspaceId, elsewhereHook.endpointId)).toEqual([]);
    expect(await deliveriesOf(database.db, elsewhereTestHook.workspaceId, elsewhereTestHook.endpointId)).toEqual([]);

    expect(onlyCtf.requests.map(eventIdOf)).toEqual([deployed.id]);
    expect(onlyCtf.requests[0].headers["x-service-event"]).toBe("ctf.deployed");
    expect(onlyCtf.requests[0].headers["x-webhook-event"]).toBeUndefined();
    expect(testResults.requests.map(eventIdOf)).toEqual([completed.id]);
    expect(verifyCertification(testResults.requests[0].raw, testResults.requests[0].headers, testHook.secret)).toBe("valid");
    // An all-events competition endpoint gets the competition event, never test.completed.
    expect(every.requests.map(eventIdOf)).toEqual([deployed.id]);
    expect(onlyMember.requests).toHaveLength(0);
    expect(elsewhere.requests).toHaveLength(0);
    expect(await deliveriesOf(database.db, trainer.workspaceId, ctfHook.endpointId)).toHaveLength(1);
    expect(await deliveriesOf(database.db, trainer.workspaceId, testHook.endpointId)).toHaveLength(1);
    expect(await deliveriesOf(database.db, trainer.workspaceId, everyHook.endpointId)).toHaveLength(1);
    expect(await deliveriesOf(database.db, trainer.workspaceId, memberHook.id)).toHaveLength(0);
  });

  it("delivers nothing and leaves no rows when the publishing transaction rolls back", async () => {
    const receiver = await receivers.start({ kind: "ok" }, "rollback");
    const hook = await endpoint(receiver);
    await expect(
      database.db.transaction(async (tx) => {
        await publishEvent(tx, hook.workspaceId, "ctf.deployed", ctfDeployed);
        throw new Error("the change that caused the event failed");
      }),
    ).rejects.toThrow("the change that caused the event failed");
    // No rows (below), so nothing can be sent; the committed event after proves the worker was looking.
    expect(receiver.requests).toHaveLength(0);
    const [{ total: eventRows }] = await database.db.select({ total: count() }).from(events).where(eq(events.workspaceId, hook.workspaceId));
    const [{ total: deliveryRows }] = await database.db
      .select({ total: count() })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, hook.endpointId));
    expect(eventRows).toBe(0);
    expect(deliveryRows).toBe(0);

    // The worker was running all along: a committed event does arrive, and only that one.
    const [committed] = await publish(hook.workspaceId, "ctf.deployed");
    await receiver.waitForRequests(1);
    await settledDeliveries(database.db, hook.workspaceId, hook.endpointId);
    expect(receiver.requests.map(eventIdOf)).toEqual([committed.id]);
  });
});

describe("failures: 3 attempts with linear backoff, then dropped (one worker run)", () => {
  type Case = { receiver: Receiver; hook: Hook; type: Published; eventId: string; delivery: DeliveryView };
  const specs: [string, Behaviour | "redirect", Published][] = [
    ["status500", { kind: "status", status: 500 }, "ctf.deployed"],
    ["hang", { kind: "hang" }, "test.completed"],
    ["reset", { kind: "reset" }, "ctf.deployed"],
    ["redirect", "redirect", "test.completed"],
    ["failTwiceThenOk", { kind: "failThenOk", failures: 2 }, "ctf.deployed"],
  ];
  const cases: Record<string, Case> = {};
  let redirectTarget: Receiver;
  let healthy: { receiver: Receiver; publishedAt: number; arrivedAt: number; hangFirstAt: number; hangAttemptsThen: number };

  beforeAll(async () => {
    vi.stubEnv("WEBHOOK_DEADLINE_MS", String(DEADLINE_MS));
    redirectTarget = await receivers.start({ kind: "ok" }, "redirect-target");
    for (const [name, behaviour, type] of specs) {
      const receiver = await receivers.start(behaviour === "redirect" ? { kind: "redirect", location: redirectTarget.url } : behaviour, name);
      cases[name] = { receiver, hook: await endpointFor(receiver, type), type, eventId: "", delivery: undefined as never };
    }
    const healthyReceiver = await receivers.start({ kind: "ok" }, "healthy");
    const healthyHook = await endpoint(healthyReceiver);

    await Promise.all(
      Object.values(cases).map(async (c) => {
        c.eventId = (await publish(c.hook.workspaceId, c.type))[0].id;
      }),
    );

    // While the hanging receiver holds its first attempt, a healthy endpoint is served at once.
    const [hangFirst] = await cases.hang.receiver.waitForRequests(1, 5_000);
    const publishedAt = performance.now();
    await publish(healthyHook.workspaceId, "ctf.deployed");
    const [arrived] = await healthyReceiver.waitForRequests(1, 5_000);
    const [hangDelivery] = await deliveriesOf(database.db, cases.hang.hook.workspaceId, cases.hang.hook.endpointId);
    healthy = {
      receiver: healthyReceiver,
      publishedAt,
      arrivedAt: arrived.perf,
      hangFirstAt: hangFirst.perf,
      // The hanging attempt is recorded as in flight before its POST; none has finished yet.
      hangAttemptsThen: hangDelivery.attempts.filter((attempt) => attempt.state !== "in_flight").length,
    };

    // The hanging endpoint needs 3 × the deadline plus 3 × step of backoff; the others settle sooner.
    // Polled slowly: on PGlite the test's queries share the worker's thread.
    await Promise.all(
      Object.values(cases).map(async (c) => {
        [c.delivery] = await settledDeliveries(database.db, c.hook.workspaceId, c.hook.endpointId, 1, 45_000, 500);
      }),
    );
  }, 60_000);

  afterAll(() => {
    vi.stubEnv("WEBHOOK_DEADLINE_MS", ""); // the spec's 8 s again for whatever runs next
  });

  const failing = ["status500", "hang", "reset", "redirect"] as const;

  it.each(failing)("%s: exactly 3 attempts made and received, then dropped", (name) => {
    const { delivery, receiver, eventId } = cases[name];
    expect(delivery.status).toBe("dropped");
    expect(delivery.next_attempt_at).toBeNull();
    expect(delivery.event_id).toBe(eventId);
    expect(delivery.attempts.map((a) => [a.number, a.ok])).toEqual([
      [1, false],
      [2, false],
      [3, false],
    ]);
    expect(receiver.requests).toHaveLength(3);
    expect(receiver.connections).toBe(3);
  });

  it("records why each attempt failed", () => {
    for (const attempt of cases.status500.delivery.attempts) {
      expect(attempt).toMatchObject({ status_code: 500, error: "HTTP 500", response_excerpt: "status 500" });
    }
    for (const attempt of cases.hang.delivery.attempts) {
      expect(attempt.status_code).toBeNull();
      expect(attempt.error).toBe(`timeout: no 2xx within ${DEADLINE_MS} ms`);
      expect(attempt.duration_ms).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
      expect(attempt.duration_ms).toBeLessThan(DEADLINE_MS + 1_500);
    }
    for (const attempt of cases.reset.delivery.attempts) {
      expect(attempt.status_code).toBeNull();
      expect(attempt.error).toMatch(/ECONNRESET/);
    }
    for (const attempt of cases.redirect.delivery.attempts) {
      expect(attempt.status_code).toBe(302);
      expect(attempt.error).toMatch(/redirect/i);
    }
  });

  it("never follows the redirect", () => {
    expect(cases.redirect.receiver.requests).toHaveLength(3);
    expect(redirectTarget.requests).toHaveLength(0);
    expect(redirectTarget.connections).toBe(0);
  });

  it.each([...failing, "failTwiceThenOk"])("%s: attempts are spaced by step then 2 × step after the previous one ended", (name) => {
    const gaps = backoffGaps(cases[name].delivery);
    expect(gaps).toHaveLength(2);
    const [first, second] = gaps;
    expect(first).toBeGreaterThanOrEqual(STEP_MS - 5);
    expect(first).toBeLessThanOrEqual(STEP_MS + LATE_MS);
    expect(second).toBeGreaterThanOrEqual(2 * STEP_MS - 5);
    expect(second).toBeLessThanOrEqual(2 * STEP_MS + LATE_MS);
    // Linear: the bounds above make the second wait at least twice the step (not a constant
    // backoff) and at most 2 × step + LATE_MS (not 4 × step, as doubling again would be). A ratio
    // of the two waits is left out: one late first retry under CI's load made it flaky.

    // The receiver sees the same waits, from the end of one exchange (answer sent, or the
    // connection dropped at the deadline) to the arrival of the next, give or take transit.
    const requests = cases[name].receiver.requests;
    const transit = 250;
    // A hanging exchange ends at the sender's deadline; the receiver may notice the dropped
    // connection late under load, so its waits are measured from one arrival to the next.
    const endOf = (request: (typeof requests)[number]) => (name === "hang" ? request.perf + DEADLINE_MS : request.closedPerf!);
    expect(requests[1].perf - endOf(requests[0])).toBeGreaterThanOrEqual(STEP_MS - transit);
    expect(requests[2].perf - endOf(requests[1])).toBeGreaterThanOrEqual(2 * STEP_MS - transit);
  });

  it.each(specs.map(([name]) => name))("%s: every attempt carries the same event id and a valid signature", (name) => {
    const { receiver, hook, eventId, type } = cases[name];
    expect(receiver.requests).toHaveLength(3);
    for (const request of receiver.requests) {
      expect(eventIdOf(request)).toBe(eventId);
      expect(verify(request, hook.secret)).toBe("valid");
      const body = JSON.parse(request.raw.toString("utf8"));
      if (type === "test.completed") expect(body.payload.event_id).toBe(eventId);
      else expect(body.data).toEqual(ctfDeployed);
    }
  });

  it("delivers failTwiceThenOk on the third attempt", () => {
    const { delivery, receiver } = cases.failTwiceThenOk;
    expect(delivery.status).toBe("delivered");
    expect(delivery.attempts.map((a) => [a.number, a.ok, a.status_code])).toEqual([
      [1, false, 500],
      [2, false, 500],
      [3, true, 200],
    ]);
    expect(receiver.requests).toHaveLength(3);
  });

  it("does not let a hanging endpoint delay a healthy one", () => {
    expect(healthy.receiver.requests).toHaveLength(1);
    expect(healthy.hangAttemptsThen).toBe(0);
    expect(healthy.arrivedAt - healthy.publishedAt).toBeLessThan(2_000);
    // Well before the hanging attempt is cut off (the first half of its deadline).
    expect(healthy.arrivedAt).toBeLessThan(healthy.hangFirstAt + DEADLINE_MS / 2);
  });
});
