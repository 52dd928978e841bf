import http from "node:http";
import { freePort } from "../../helpers/ports";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { EventData } from "@/lib/platform/pipeline/channels/webhook/events";
import { publishEvent } from "@/lib/platform/pipeline/channels/webhook/publish";
import { EmbeddedWorker } from "@/lib/platform/pipeline/executors/worker";
import { deliveryMaxAttempts, deliveryRetryDelayMs, deliveryRetryDelays, webhookRunRetries } from "@/lib/platform/pipeline/outbox/schedule";
import { createTestResultWebhook, createWebhook } from "@/lib/platform/webhooks/endpoints";
import { ConfigError, parseConfig } from "@/lib/kernel/config/config";
import { stepRegistry } from "@/lib/registry/steps";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { backoffGaps, deliveriesOf, settledDeliveries, waitUntil } from "../../helpers/delivery";
import { createTrainer } from "../../helpers/fixtures";
import { receiverPool, type RecordedRequest } from "../../helpers/receivers";

/**
 * Test-result endpoints retry on a schedule of about a day (Standard Webhooks': immediately,
 * 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h), TEST_RESULT_RETRY_SCHEDULE; competition endpoints
 * keep the specification's 3 attempts with the short linear backoff. The schedule is compressed
 * here (the same 8 attempts, in milliseconds). The Inngest executor's plan is in
 * tests/platform/pipeline/inngest-retry-schedule.test.ts.
 */

const SCHEDULE = [150, 200, 250, 300, 350, 400, 450];
const STEP_MS = 200;

const testCompleted: EventData<"test.completed"> = {
  test: "LMS-OUT",
  score: 50,
  correct: 1,
  questions: 2,
  recipient: { email: "lms@example.test", name: "Outage" },
  domains: [{ id: 1, name: "Networks", percent: 50, correct: 1, questions: 2 }],
  passed: false,
};

let database: TestDatabase;
let worker: EmbeddedWorker;
const receivers = receiverPool();

beforeAll(async () => {
  vi.stubEnv("WEBHOOK_ALLOW_PRIVATE", "true");
  vi.stubEnv("WEBHOOK_RETRY_STEP_MS", String(STEP_MS));
  vi.stubEnv("TEST_RESULT_RETRY_SCHEDULE", SCHEDULE.map((ms) => `${ms}ms`).join(","));
  database = await createTestDatabase();
  worker = new EmbeddedWorker(database, { steps: stepRegistry, pollMs: 50 });
  await worker.start();
});

afterAll(async () => {
  await receivers.closeAll();
  await worker?.stop();
  await database?.drop();
  vi.unstubAllEnvs();
});

/** A receiver brought up on `port` (answers 200, records each request). */
async function bringUp(port: number): Promise<{ requests: RecordedRequest[]; close(): Promise<void> }> {
  const requests: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      requests.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, raw: Buffer.concat(chunks), at: Date.now(), perf: performance.now() });
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function publishResult(workspaceId: string) {
  return database.db.transaction((tx) => publishEvent(tx, workspaceId, "test.completed", testCompleted));
}

describe("TEST_RESULT_RETRY_SCHEDULE", () => {
  it("defaults to Standard Webhooks' schedule: 8 attempts over about 27 h", () => {
    expect(parseConfig({}).webhooks.testResultRetryDelaysMs).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
  });

  it("takes comma-separated durations in ms, s, m, h or d (spaces allowed)", () => {
    expect(parseConfig({ TEST_RESULT_RETRY_SCHEDULE: "5s,5m,30m,2h" }).webhooks.testResultRetryDelaysMs).toEqual([5_000, 300_000, 1_800_000, 7_200_000]);
    expect(parseConfig({ TEST_RESULT_RETRY_SCHEDULE: " 200ms , 1d " }).webhooks.testResultRetryDelaysMs).toEqual([200, 86_400_000]);
  });

  it.each(["5 minutes", "5s,,5m", "5", "0s", "-5s", "8d", "1.5h", Array.from({ length: 21 }, () => "1s").join(",")])("refuses %j naming the variable and the grammar", (raw) => {
    let error: unknown;
    try {
      parseConfig({ TEST_RESULT_RETRY_SCHEDULE: raw });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      {
        variable: "TEST_RESULT_RETRY_SCHEDULE",
        message: expect.stringMatching(/^TEST_RESULT_RETRY_SCHEDULE must be a comma-separated list of 1 to 20 delays, each a whole number with a unit \(ms, s, m, h, d\) from 1ms to 7d, such as 5s,5m,30m,2h \(got /),
      },
    ]);
  });

  it("gives each service its schedule, and Inngest retries enough for the longer one", () => {
    expect(deliveryRetryDelays("certification")).toEqual(SCHEDULE);
    expect(deliveryMaxAttempts("certification")).toBe(8);
    expect(deliveryRetryDelays("competition")).toEqual([STEP_MS, 2 * STEP_MS]);
    expect(deliveryMaxAttempts("competition")).toBe(3);
    expect([1, 2, 7].map((failed) => deliveryRetryDelayMs("certification", failed))).toEqual([150, 200, 450]);
    expect(webhookRunRetries()).toBe(7);
  });
});

describe("a test-result endpoint that is down for a while (embedded executor)", () => {
  it("receives the test.completed, with the same event id, once it is up again", async () => {
    const trainer = await createTrainer(database.db);
    const port = await freePort();
    const hook = await createTestResultWebhook(database.db, trainer.workspaceId, { url: `http://127.0.0.1:${port}/lms` });
    const event = await publishResult(trainer.workspaceId);

    // Down for 4 attempts: more than a competition endpoint would ever get.
    await waitUntil("4 refused attempts", async () => {
      const [delivery] = await deliveriesOf(database.db, trainer.workspaceId, hook.id);
      return delivery.attempts.filter((attempt) => attempt.state === "completed").length >= 4;
    });
    const lms = await bringUp(port);
    try {
      const [delivery] = await settledDeliveries(database.db, trainer.workspaceId, hook.id);
      expect(delivery.status).toBe("delivered");
      expect(delivery.event_id).toBe(event.id);
      const last = delivery.attempts.at(-1)!;
      expect(last).toMatchObject({ ok: true, status_code: 200 });
      expect(last.number).toBeGreaterThan(4);
      expect(delivery.attempts.map((attempt) => attempt.number)).toEqual(Array.from({ length: last.number }, (_, i) => i + 1));
      for (const refused of delivery.attempts.slice(0, -1)) expect(refused).toMatchObject({ ok: false, status_code: null, error: expect.stringMatching(/ECONNREFUSED/) });

      expect(lms.requests).toHaveLength(1);
      const [request] = lms.requests;
      expect(request.headers["x-webhook-event-id"]).toBe(event.id);
      expect(request.headers["webhook-id"]).toBe(event.id);
      expect(JSON.parse(request.raw.toString("utf8")).payload.event_id).toBe(event.id);
    } finally {
      await lms.close();
    }
  });

  it("is dropped only after the whole schedule, its attempts spaced as the schedule says; a competition endpoint after 3", async () => {
    const trainer = await createTrainer(database.db);
    const lms = await receivers.start({ kind: "status", status: 503 }, "lms-failing");
    const ctf = await receivers.start({ kind: "status", status: 503 }, "ctf-failing");
    const results = await createTestResultWebhook(database.db, trainer.workspaceId, { url: lms.url });
    const competition = await createWebhook(database.db, trainer.workspaceId, { url: ctf.url, events: [], secret: "c".repeat(24) }, "api");
    const event = await publishResult(trainer.workspaceId);
    await database.db.transaction((tx) =>
      publishEvent(tx, trainer.workspaceId, "ctf.deployed", { managed_ctf_id: "mctf_retry", title: "Retry", url: "https://ctf.example.test", is_public: false }),
    );

    const [dropped] = await settledDeliveries(database.db, trainer.workspaceId, results.id, 1, 30_000, 200);
    expect(dropped.status).toBe("dropped");
    expect(dropped.next_attempt_at).toBeNull();
    expect(dropped.attempts.map((attempt) => [attempt.number, attempt.ok, attempt.status_code])).toEqual(
      Array.from({ length: 8 }, (_, i) => [i + 1, false, 503]),
    );
    expect(lms.requests).toHaveLength(8);
    expect(new Set(lms.requests.map((request) => request.headers["webhook-id"]))).toEqual(new Set([event.id]));
    // Each wait is at least the schedule's (a retry falls due then; the worker may start it a little later).
    backoffGaps(dropped).forEach((gap, i) => expect(gap).toBeGreaterThanOrEqual(SCHEDULE[i] - 5));

    const [competitionDropped] = await settledDeliveries(database.db, trainer.workspaceId, competition.id, 1, 30_000, 200);
    expect(competitionDropped.status).toBe("dropped");
    expect(competitionDropped.attempts).toHaveLength(3);
    expect(ctf.requests).toHaveLength(3);
    const [first, second] = backoffGaps(competitionDropped);
    expect(first).toBeGreaterThanOrEqual(STEP_MS - 5);
    expect(second).toBeGreaterThanOrEqual(2 * STEP_MS - 5);
  });
});
