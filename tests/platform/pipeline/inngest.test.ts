import { randomBytes } from "node:crypto";
import { createElement } from "react";
import { InngestTestEngine } from "@inngest/test";
import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { emailMessages, scheduledSteps, webhookDeliveries } from "@/db/schema";
import { SignInEmail } from "@/lib/platform/email/templates/sign-in";
import { publishEvent } from "@/lib/platform/pipeline/channels/webhook/publish";
import { deliveryMaxAttempts, EMAIL_RETRIES, MAX_ATTEMPTS, WEBHOOK_RETRIES } from "@/lib/platform/pipeline/outbox/schedule";
import { createWebhook } from "@/lib/platform/webhooks/endpoints";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { startFakeInngest } from "../../helpers/fake-inngest";
import { createTrainer } from "../../helpers/fixtures";
import { receiverPool, type Receiver } from "../../helpers/receivers";
import { deliveriesOf } from "../../helpers/delivery";
import { queueEmails } from "@/lib/platform/pipeline/channels/email/queue";
import { scheduleStep } from "@/lib/ctf/steps";
import { stepRegistry } from "@/lib/registry/steps";
import { registeredSteps } from "@/lib/platform/pipeline/channels/steps/steps";
import { ctfSteps } from "@/lib/ctf/steps";
import { ctfStepHandlers } from "@/lib/registry/ctf-step-handlers";

// The Inngest client reads its environment when it is constructed, at import: the fake event
// API must be up and INNGEST_DEV set before lib/platform/pipeline/executors/inngest is loaded.
const fakeInngest = await startFakeInngest();
vi.stubEnv("INNGEST_DEV", fakeInngest.url);
vi.stubEnv("INNGEST_EVENT_KEY", "");
vi.stubEnv("INNGEST_BASE_URL", "");
vi.stubEnv("INNGEST_EVENT_API_BASE_URL", "");
const { createFunctions, eventNames, handOffToInngest } = await import("@/lib/platform/pipeline/executors/inngest");

/** 2 s: RetryAfterError carries whole seconds, so the step is a whole number of seconds here. */
const STEP_MS = 2_000;

let database: TestDatabase;
const receivers = receiverPool();
let functions: ReturnType<typeof createFunctions>;

beforeAll(async () => {
  vi.stubEnv("WEBHOOK_RETRY_STEP_MS", String(STEP_MS));
  vi.stubEnv("WORKER_LEASE_MS", "10000");
  vi.stubEnv("WEBHOOK_ALLOW_PRIVATE", "true");
  vi.stubEnv("RESEND_API_KEY", "");
  database = await createTestDatabase();
  functions = createFunctions(async () => database.db, stepRegistry);
});

afterAll(async () => {
  await receivers.closeAll();
  await fakeInngest.close();
  await database?.drop();
  vi.unstubAllEnvs();
});

async function endpointFor(receiver: Receiver) {
  const trainer = await createTrainer(database.db);
  const hook = await createWebhook(
    database.db,
    trainer.workspaceId,
    { url: receiver.url, events: [], secret: `whsec_${randomBytes(18).toString("base64url")}` },
    "api",
  );
  return { workspaceId: trainer.workspaceId, endpointId: hook.id };
}

async function pendingDelivery(receiver: Receiver) {
  const hook = await endpointFor(receiver);
  await database.db.transaction((tx) =>
    publishEvent(tx, hook.workspaceId, "challenge.published", {
      managed_ctf_id: "mctf_inngest",
      challenge_id: "chl_1",
      title: "Buffer overflow 101",
      category: "pwn",
      platform_challenge_id: 42,
    }),
  );
  const [delivery] = await deliveriesOf(database.db, hook.workspaceId, hook.endpointId);
  return { ...hook, deliveryId: delivery.id };
}

function mail(to: string) {
  const url = `http://localhost:3000/api/auth/callback/resend?token=${to}`;
  return { kind: "sign_in", to, subject: "Sign in to Certify", react: createElement(SignInEmail, { url, host: "localhost:3000" }) };
}

type ExecutionOutcome = { type: string; error?: { name?: string; message?: string }; retriable?: unknown; data?: unknown };

/**
 * Runs the function once and returns what the SDK would answer Inngest, including
 * `retriable` (the RetryAfterError delay), which `execute()` does not expose.
 */
async function executeOnce(engine: InngestTestEngine): Promise<ExecutionOutcome> {
  const once = engine as unknown as { individualExecution(): Promise<{ result: ExecutionOutcome }> };
  return (await once.individualExecution()).result;
}

/** Whether each row is marked handed off to Inngest. */
async function handedOff(table: "webhook_deliveries" | "email_messages" | "scheduled_steps", ids: string[]): Promise<Record<string, boolean>> {
  const rows = await database.query<{ id: string; handed: boolean }>(`select id, handed_off_at is not null as handed from ${table} where id = any($1)`, [ids]);
  return Object.fromEntries(ids.map((id) => [id, rows.find((row) => row.id === id)?.handed ?? false]));
}

describe("the retry schedule, shared with Inngest", () => {
  it("counts retries as attempts − 1 and configures the functions with them", () => {
    expect(WEBHOOK_RETRIES).toBe(MAX_ATTEMPTS - 1);
    const [deliverWebhook, sendEmail, runScheduledStep] = functions;
    // Enough for a test result's schedule (8 attempts by default); a competition delivery is dropped after its third.
    expect(deliverWebhook.opts.retries).toBe(deliveryMaxAttempts("certification") - 1);
    expect(sendEmail.opts.retries).toBe(EMAIL_RETRIES);
    expect(runScheduledStep.opts.retries).toBe(WEBHOOK_RETRIES);
  });
});

// Hand-off first, while the outbox holds only what these tests put in it.
describe("hand-off to Inngest (a fake event API on INNGEST_DEV)", () => {
  it("sends every committed outbox row as an event and marks the rows handed off", async () => {
    const receiver = await receivers.start({ kind: "ok" }, "handoff");
    const { deliveryId, endpointId, workspaceId } = await pendingDelivery(receiver);
    const emails = await database.db.transaction((tx) => queueEmails(tx, [mail("one@example.test"), mail("two@example.test")]));
    const runAt = new Date(Date.now() + 60_000);
    const step = await database.db.transaction((tx) => scheduleStep(tx, workspaceId, "ctf.deploy", { ctfId: "ctf_later" }, runAt));
    const before = fakeInngest.calls.length;

    expect(await handOffToInngest(database.db)).toEqual({ handedOff: 3, again: 0 });

    const calls = fakeInngest.calls.slice(before);
    expect(calls).toHaveLength(1);
    expect(calls[0].method).toBe("POST");
    expect(calls[0].path).toMatch(/^\/e\/.+/);
    const sent = calls[0].events;
    expect(sent).toHaveLength(3);
    expect(sent.find((e) => e.name === eventNames.delivery)).toMatchObject({
      name: "certify/webhook.delivery.requested",
      id: deliveryId,
      data: { deliveryId, endpointId },
    });
    const email = sent.find((e) => e.name === eventNames.email)!;
    expect(email.name).toBe("certify/email.send.requested");
    expect([...email.data.ids].sort()).toEqual(emails.map((e) => e.id).sort());
    expect(sent.find((e) => e.name === eventNames.step)).toMatchObject({
      name: "certify/step.scheduled",
      id: step.id,
      data: { stepId: step.id, runAt: runAt.toISOString() },
    });
    expect(Object.values(await handedOff("webhook_deliveries", [deliveryId]))).toEqual([true]);
    expect(Object.values(await handedOff("email_messages", emails.map((e) => e.id)))).toEqual([true, true]);
    expect(Object.values(await handedOff("scheduled_steps", [step.id]))).toEqual([true]);

    // A second pass has nothing left to hand over and sends nothing.
    expect(await handOffToInngest(database.db)).toEqual({ handedOff: 0, again: 0 });
    expect(fakeInngest.calls.length).toBe(before + 1);
    expect(receiver.requests).toHaveLength(0);
  });

  it("marks nothing when the Inngest API fails, and hands the rows over on the next pass (nothing lost)", async () => {
    const receiver = await receivers.start({ kind: "ok" }, "handoff-outage");
    const { deliveryId } = await pendingDelivery(receiver);
    const before = fakeInngest.calls.length;
    fakeInngest.failing = true;
    try {
      await expect(handOffToInngest(database.db)).rejects.toThrow();
    } finally {
      fakeInngest.failing = false;
    }
    const failed = fakeInngest.calls.slice(before);
    expect(failed.length).toBeGreaterThanOrEqual(1);
    expect(failed.every((call) => call.status === 500)).toBe(true);
    expect(await handedOff("webhook_deliveries", [deliveryId])).toEqual({ [deliveryId]: false });

    expect(await handOffToInngest(database.db)).toEqual({ handedOff: 1, again: 0 });
    expect(fakeInngest.accepted().filter((e) => e.id === deliveryId)).toHaveLength(1);
    expect(await handedOff("webhook_deliveries", [deliveryId])).toEqual({ [deliveryId]: true });
  }, 20_000);

  it("sweepOutbox (the cron) hands over only rows older than 30 s, the ones a dispatcher missed", async () => {
    const receiver = await receivers.start({ kind: "ok" }, "sweep");
    const old = await pendingDelivery(receiver);
    const fresh = await pendingDelivery(receiver);
    await database.db
      .update(webhookDeliveries)
      .set({ createdAt: sql`now() - interval '60 seconds'` })
      .where(eq(webhookDeliveries.id, old.deliveryId));
    const sweepOutbox = functions[3];
    const before = fakeInngest.calls.length;

    const { result, error } = await new InngestTestEngine({ function: sweepOutbox }).execute();
    expect(error).toBeUndefined();
    expect(result).toEqual({ handedOff: 1, again: 0 });
    const sent = fakeInngest.calls.slice(before).flatMap((call) => call.events);
    expect(sent.map((e) => e.id)).toEqual([old.deliveryId]);
    expect(await handedOff("webhook_deliveries", [old.deliveryId, fresh.deliveryId])).toEqual({
      [old.deliveryId]: true,
      [fresh.deliveryId]: false,
    });
    // Leave the outbox clean for the tests below.
    await handOffToInngest(database.db);
  });
});

describe("the Inngest functions (@inngest/test)", () => {
  it("deliverWebhook delivers to a healthy receiver and returns the outcome", async () => {
    const receiver = await receivers.start({ kind: "ok" }, "inngest-ok");
    const { deliveryId, endpointId, workspaceId } = await pendingDelivery(receiver);
    const engine = new InngestTestEngine({ function: functions[0], events: [{ name: eventNames.delivery, data: { deliveryId, endpointId } }] });
    const { result, error } = await engine.execute();
    expect(error).toBeUndefined();
    expect(result).toEqual({ outcome: "delivered", attempt: 1 });
    expect(receiver.requests).toHaveLength(1);
    const [delivery] = await deliveriesOf(database.db, workspaceId, endpointId);
    expect(delivery.status).toBe("delivered");
    expect(delivery.attempts).toEqual([expect.objectContaining({ number: 1, ok: true, status_code: 200 })]);
  });

  it("deliverWebhook asks Inngest to retry after step × attempt (RetryAfterError), then drops after the third attempt", async () => {
    const receiver = await receivers.start({ kind: "status", status: 500 }, "inngest-500");
    const { deliveryId, endpointId, workspaceId } = await pendingDelivery(receiver);
    const engine = () => new InngestTestEngine({ function: functions[0], events: [{ name: eventNames.delivery, data: { deliveryId, endpointId } }] });

    for (const attempt of [1, 2]) {
      // One execution, as Inngest would run it: rejected with a RetryAfterError, and the
      // execution tells Inngest when to retry (step × attempt, in whole seconds).
      const outcome = await executeOnce(engine());
      expect(outcome.type).toBe("function-rejected");
      expect(outcome.error).toMatchObject({ name: "RetryAfterError", message: "HTTP 500" });
      expect(outcome.retriable).toBe(String(Math.ceil((STEP_MS * attempt) / 1000)));
      const [delivery] = await deliveriesOf(database.db, workspaceId, endpointId);
      expect(delivery.status).toBe("pending");
      expect(delivery.attempts).toHaveLength(attempt);
      expect(delivery.attempts[attempt - 1]).toMatchObject({ number: attempt, ok: false, status_code: 500 });
    }

    // The third failure is final: the run fails without a retry (NonRetriableError) and
    // Inngest runs onFailure; the delivery is already dropped.
    const last = await engine().execute();
    expect(last.result).toBeUndefined();
    expect(last.error).toMatchObject({ name: "NonRetriableError", message: expect.stringMatching(/dropped after attempt 3: HTTP 500$/) });
    const [delivery] = await deliveriesOf(database.db, workspaceId, endpointId);
    expect(delivery.status).toBe("dropped");
    expect(delivery.attempts).toHaveLength(3);
    expect(receiver.requests).toHaveLength(3);
  });

  it("deliverWebhook's run error, as the test engine returns it, is the RetryAfterError", async () => {
    const receiver = await receivers.start({ kind: "status", status: 503 }, "inngest-503");
    const { deliveryId, endpointId } = await pendingDelivery(receiver);
    const { result, error } = await new InngestTestEngine({
      function: functions[0],
      events: [{ name: eventNames.delivery, data: { deliveryId, endpointId } }],
    }).execute();
    expect(result).toBeUndefined();
    expect(error).toMatchObject({ name: "RetryAfterError", message: "HTTP 503" });
    expect(receiver.requests).toHaveLength(1);
  });

  it("deliverWebhook's onFailure marks the delivery dropped", async () => {
    const receiver = await receivers.start({ kind: "ok" }, "inngest-on-failure");
    const { deliveryId, endpointId, workspaceId } = await pendingDelivery(receiver);
    const onFailure = functions[0].opts.onFailure as unknown as (ctx: unknown) => Promise<void>;
    await onFailure({ event: { name: "inngest/function.failed", data: { event: { name: eventNames.delivery, data: { deliveryId, endpointId } } } } });
    const [delivery] = await deliveriesOf(database.db, workspaceId, endpointId);
    expect(delivery.status).toBe("dropped");
    expect(receiver.requests).toHaveLength(0);
  });

  it("sendEmail sends the e-mails it is given and returns the counts", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    try {
      const queued = await database.db.transaction((tx) => queueEmails(tx, [mail("inngest-mail@example.test")]));
      const ids = queued.map((row) => row.id);
      const { result, error } = await new InngestTestEngine({ function: functions[1], events: [{ name: eventNames.email, data: { ids } }] }).execute();
      expect(error).toBeUndefined();
      expect(result).toEqual({ sent: 1, failed: 0 });
      const rows = await database.db.select().from(emailMessages).where(inArray(emailMessages.id, ids));
      expect(rows.map((row) => row.status)).toEqual(["sent"]);
    } finally {
      log.mockRestore();
    }
  });

  it("runScheduledStep runs a due step once", async () => {
    const ran: string[] = [];
    const [, , runScheduledStep] = createFunctions(async () => database.db, {
      ...stepRegistry,
      ...registeredSteps(ctfSteps, {
        ...ctfStepHandlers,
        "ctf.deploy": async (_db, { ctfId }) => {
          ran.push(ctfId);
        },
      }),
    });
    const trainer = await createTrainer(database.db);
    const step = await database.db.transaction((tx) => scheduleStep(tx, trainer.workspaceId, "ctf.deploy", { ctfId: "ctf_inngest_ok" }, new Date()));
    const { result, error } = await new InngestTestEngine({
      function: runScheduledStep,
      events: [{ name: eventNames.step, data: { stepId: step.id, runAt: step.runAt.toISOString() } }],
      steps: [{ id: "until-due", handler: () => null }],
    }).execute();
    expect(error).toBeUndefined();
    expect(result).toEqual({ outcome: "done" });
    expect(ran).toEqual(["ctf_inngest_ok"]);
    const [row] = await database.db.select().from(scheduledSteps).where(eq(scheduledSteps.id, step.id));
    expect(row.status).toBe("done");
  });

  it("runScheduledStep does not strand a failing step: Inngest retries it, or it goes back to the outbox", async () => {
    const [, , runScheduledStep] = createFunctions(async () => database.db, {
      ...stepRegistry,
      ...registeredSteps(ctfSteps, {
        ...ctfStepHandlers,
        "ctf.deploy": async () => {
          throw new Error("platform unavailable");
        },
      }),
    });
    const trainer = await createTrainer(database.db);
    const step = await database.db.transaction((tx) => scheduleStep(tx, trainer.workspaceId, "ctf.deploy", { ctfId: "ctf_inngest_fails" }, new Date()));
    // As in production: the dispatcher handed the step to Inngest before it ran.
    await handOffToInngest(database.db);
    const { result, error } = await new InngestTestEngine({
      function: runScheduledStep,
      events: [{ name: eventNames.step, data: { stepId: step.id, runAt: step.runAt.toISOString() } }],
      steps: [{ id: "until-due", handler: () => null }],
    }).execute();
    const [row] = await database.db.select().from(scheduledSteps).where(eq(scheduledSteps.id, step.id));
    expect(row).toMatchObject({ status: "pending", attempts: 1, lastError: "platform unavailable" });
    // The step is due again later. Something must run it: Inngest, if the run failed, or the
    // dispatcher / cron sweep, if the row went back to the outbox (handed_off_at cleared).
    const retriedByInngest = error !== undefined;
    const backInOutbox = row.handedOffAt === null;
    expect(
      retriedByInngest || backInOutbox,
      `the run resolved with ${JSON.stringify(result)}, the row is pending and still marked handed off: nothing will run it again`,
    ).toBe(true);
  });
});
