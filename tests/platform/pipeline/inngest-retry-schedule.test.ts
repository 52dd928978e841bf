import { InngestTestEngine } from "@inngest/test";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { webhookDeliveries } from "@/db/schema";
import { publishEvent } from "@/lib/platform/pipeline/channels/webhook/publish";
import { createTestResultWebhook } from "@/lib/platform/webhooks/endpoints";
import { stepRegistry } from "@/lib/registry/steps";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { deliveriesOf } from "../../helpers/delivery";
import { startFakeInngest } from "../../helpers/fake-inngest";
import { createTrainer } from "../../helpers/fixtures";
import { receiverPool } from "../../helpers/receivers";

/**
 * The Inngest executor retries a test result on the same schedule as the embedded worker, with
 * durable sleeps: each run makes one attempt and, when it fails, throws a RetryAfterError with
 * the schedule's next delay (Inngest holds the run that long, across restarts), and the
 * function has retries enough for the whole schedule. @inngest/test runs one execution at a
 * time (it does not simulate retries): each execution here is the run Inngest would make.
 */

// The Inngest client reads its environment when it is constructed, at import.
const fakeInngest = await startFakeInngest();
vi.stubEnv("INNGEST_DEV", fakeInngest.url);
vi.stubEnv("INNGEST_EVENT_KEY", "");
vi.stubEnv("INNGEST_BASE_URL", "");
vi.stubEnv("INNGEST_EVENT_API_BASE_URL", "");
const { createFunctions, eventNames } = await import("@/lib/platform/pipeline/executors/inngest");

/** Standard Webhooks' schedule, the default, in seconds (RetryAfterError carries whole seconds). */
const DEFAULT_DELAYS_S = [5, 300, 1_800, 7_200, 18_000, 36_000, 36_000];

let database: TestDatabase;
const receivers = receiverPool();
let functions: ReturnType<typeof createFunctions>;

beforeAll(async () => {
  vi.stubEnv("TEST_RESULT_RETRY_SCHEDULE", ""); // the default
  vi.stubEnv("WORKER_LEASE_MS", "10000");
  vi.stubEnv("WEBHOOK_ALLOW_PRIVATE", "true");
  database = await createTestDatabase();
  functions = createFunctions(async () => database.db, stepRegistry);
});

afterAll(async () => {
  await receivers.closeAll();
  await fakeInngest.close();
  await database?.drop();
  vi.unstubAllEnvs();
});

type ExecutionOutcome = { type: string; error?: { name?: string; message?: string }; retriable?: unknown };

/** One execution, with what the SDK answers Inngest (`retriable`: the RetryAfterError delay). */
async function executeOnce(engine: InngestTestEngine): Promise<ExecutionOutcome> {
  const once = engine as unknown as { individualExecution(): Promise<{ result: ExecutionOutcome }> };
  return (await once.individualExecution()).result;
}

describe("deliver-webhook and a test-result endpoint (Inngest)", () => {
  it("has retries for every attempt of the schedule (8 attempts: 7 retries)", () => {
    const [deliverWebhook] = functions;
    expect(deliverWebhook.opts.retries).toBe(DEFAULT_DELAYS_S.length);
  });

  it("asks Inngest to retry after each delay of the schedule, then drops the delivery after the eighth attempt", async () => {
    const trainer = await createTrainer(database.db);
    const lms = await receivers.start({ kind: "status", status: 503 }, "inngest-lms");
    const hook = await createTestResultWebhook(database.db, trainer.workspaceId, { url: lms.url });
    const event = await database.db.transaction((tx) =>
      publishEvent(tx, trainer.workspaceId, "test.completed", {
        test: "INNGEST1",
        score: 100,
        correct: 1,
        questions: 1,
        recipient: { email: "i@example.test", name: "Inngest" },
        domains: [],
        passed: true,
      }),
    );
    const [{ id: deliveryId }] = await deliveriesOf(database.db, trainer.workspaceId, hook.id);
    const run = () => new InngestTestEngine({ function: functions[0], events: [{ name: eventNames.delivery, data: { deliveryId, endpointId: hook.id } }] });

    for (const [i, seconds] of DEFAULT_DELAYS_S.entries()) {
      const outcome = await executeOnce(run());
      expect(outcome.type).toBe("function-rejected");
      expect(outcome.error).toMatchObject({ name: "RetryAfterError", message: "HTTP 503" });
      expect(outcome.retriable).toBe(String(seconds));
      // The row says the same: pending, due after the delay (the stranded-row sweep leaves it be until then).
      const [row] = await database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, deliveryId));
      expect(row).toMatchObject({ status: "pending", attempts: i + 1 });
      const [delivery] = await deliveriesOf(database.db, trainer.workspaceId, hook.id);
      const attempt = delivery.attempts[i];
      expect(row.nextAttemptAt.getTime() - (Date.parse(attempt.started_at) + attempt.duration_ms)).toBeGreaterThanOrEqual(seconds * 1_000 - 1_000);
    }

    const last = await run().execute();
    expect(last.error).toMatchObject({ name: "NonRetriableError", message: expect.stringMatching(/dropped after attempt 8: HTTP 503$/) });
    const [delivery] = await deliveriesOf(database.db, trainer.workspaceId, hook.id);
    expect(delivery.status).toBe("dropped");
    expect(delivery.attempts).toHaveLength(8);
    expect(lms.requests).toHaveLength(8);
    // The same message on every attempt: webhook-id is the event id; each attempt has its own timestamp.
    expect(new Set(lms.requests.map((request) => request.headers["webhook-id"]))).toEqual(new Set([event.id]));
    expect(lms.requests.map((request) => Number(request.headers["webhook-timestamp"]))).toEqual(
      delivery.attempts.map((attempt) => Math.floor(Date.parse(attempt.started_at) / 1000)),
    );
  });

  it("delivers the result, with the same event id, to a receiver that failed four attempts and then answers", async () => {
    const trainer = await createTrainer(database.db);
    const lms = await receivers.start({ kind: "failThenOk", failures: 4 }, "inngest-lms-back");
    const hook = await createTestResultWebhook(database.db, trainer.workspaceId, { url: lms.url });
    const event = await database.db.transaction((tx) =>
      publishEvent(tx, trainer.workspaceId, "test.completed", {
        test: "INNGEST2",
        score: 0,
        correct: 0,
        questions: 1,
        recipient: { email: "back@example.test", name: "Back" },
        domains: [],
        passed: false,
      }),
    );
    const [{ id: deliveryId }] = await deliveriesOf(database.db, trainer.workspaceId, hook.id);
    const run = () => new InngestTestEngine({ function: functions[0], events: [{ name: eventNames.delivery, data: { deliveryId, endpointId: hook.id } }] });
    for (const seconds of DEFAULT_DELAYS_S.slice(0, 4)) expect((await executeOnce(run())).retriable).toBe(String(seconds));
    expect((await run().execute()).result).toEqual({ outcome: "delivered", attempt: 5 });
    const [delivery] = await deliveriesOf(database.db, trainer.workspaceId, hook.id);
    expect(delivery.status).toBe("delivered");
    expect(lms.requests.map((request) => [request.headers["webhook-id"], request.headers["x-webhook-event-id"]])).toEqual(Array.from({ length: 5 }, () => [event.id, event.id]));
  });
});
