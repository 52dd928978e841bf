import { randomBytes } from "node:crypto";
import { InngestTestEngine } from "@inngest/test";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { emailMessages, scheduledSteps, webhookDeliveries } from "@/db/schema";
import { publishEvent } from "@/lib/platform/pipeline/channels/webhook/publish";
import { createWebhook } from "@/lib/platform/webhooks/endpoints";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { captureLogs } from "../../helpers/logs";
import { startFakeInngest } from "../../helpers/fake-inngest";
import { createTrainer } from "../../helpers/fixtures";
import { deliveriesOf } from "../../helpers/delivery";
import { queueEmails } from "@/lib/platform/pipeline/channels/email/queue";
import { scheduleStep } from "@/lib/ctf/steps";
import { stepRegistry } from "@/lib/registry/steps";

// The Inngest client reads its environment at import: the fake event API must be up first.
const fakeInngest = await startFakeInngest();
vi.stubEnv("INNGEST_DEV", fakeInngest.url);
vi.stubEnv("INNGEST_EVENT_KEY", "");
vi.stubEnv("INNGEST_SIGNING_KEY", "");
vi.stubEnv("INNGEST_BASE_URL", "");
vi.stubEnv("INNGEST_EVENT_API_BASE_URL", "");
vi.stubEnv("RESEND_API_KEY", "");
const { createFunctions, eventNames, handOffToInngest, sleepUntilChained } = await import("@/lib/platform/pipeline/executors/inngest");

const STRANDED_MS = 15 * 60_000;

let database: TestDatabase;
let functions: ReturnType<typeof createFunctions>;

beforeAll(async () => {
  database = await createTestDatabase();
  functions = createFunctions(async () => database.db, stepRegistry);
});

afterAll(async () => {
  await fakeInngest.close();
  await database?.drop();
  vi.unstubAllEnvs();
});

const minutesAgo = (minutes: number) => sql`now() - ${minutes} * interval '1 minute'`;

/** One pending delivery, one queued e-mail and one pending step, all handed off to Inngest. */
async function handedOffRows() {
  const trainer = await createTrainer(database.db);
  const hook = await createWebhook(database.db, trainer.workspaceId, { url: "http://127.0.0.1:9/hook", events: [], secret: `whsec_${randomBytes(18).toString("base64url")}` }, "api");
  await database.db.transaction((tx) =>
    publishEvent(tx, trainer.workspaceId, "challenge.published", {
      managed_ctf_id: "mctf_stranded",
      challenge_id: "chl_1",
      title: "Heap",
      category: "pwn",
      platform_challenge_id: 1,
    }),
  );
  const [delivery] = await deliveriesOf(database.db, trainer.workspaceId, hook.id);
  const [email] = await database.db.transaction((tx) => queueEmails(tx, [{ kind: "sign_in", to: "stranded@example.test", subject: "Sign in", html: "<p>x</p>", text: "x" }]));
  const step = await database.db.transaction((tx) => scheduleStep(tx, trainer.workspaceId, "ctf.deploy", { ctfId: "ctf_stranded" }, new Date()));
  expect(await handOffToInngest(database.db)).toMatchObject({ again: 0 });
  return { deliveryId: delivery.id, endpointId: hook.id, emailId: email.id, stepId: step.id };
}

/** Moves a row's hand-off and due time into the past, as if its run had been lost that long ago. */
async function age(rows: Awaited<ReturnType<typeof handedOffRows>>, handedOffMinutes: number, dueMinutes: number) {
  await database.db.update(webhookDeliveries).set({ handedOffAt: minutesAgo(handedOffMinutes), nextAttemptAt: minutesAgo(dueMinutes) }).where(eq(webhookDeliveries.id, rows.deliveryId));
  await database.db.update(emailMessages).set({ handedOffAt: minutesAgo(handedOffMinutes), nextAttemptAt: minutesAgo(dueMinutes) }).where(eq(emailMessages.id, rows.emailId));
  await database.db.update(scheduledSteps).set({ handedOffAt: minutesAgo(handedOffMinutes), runAt: minutesAgo(dueMinutes) }).where(eq(scheduledSteps.id, rows.stepId));
}

async function handOffTimes(rows: Awaited<ReturnType<typeof handedOffRows>>) {
  const [d] = await database.db.select({ at: webhookDeliveries.handedOffAt }).from(webhookDeliveries).where(eq(webhookDeliveries.id, rows.deliveryId));
  const [e] = await database.db.select({ at: emailMessages.handedOffAt }).from(emailMessages).where(eq(emailMessages.id, rows.emailId));
  const [s] = await database.db.select({ at: scheduledSteps.handedOffAt }).from(scheduledSteps).where(eq(scheduledSteps.id, rows.stepId));
  return [d.at, e.at, s.at];
}

describe("stranded rows: handed to Inngest, never completed", () => {
  it("are handed over again after INNGEST_STRANDED_AFTER_MS past their due time, with new event ids", async () => {
    const rows = await handedOffRows();
    // A live run (handed off just now, or its due time recent) is left alone.
    expect(await handOffToInngest(database.db, { strandedAfterMs: STRANDED_MS })).toEqual({ handedOff: 0, again: 0 });
    await age(rows, 60, 5);
    expect(await handOffToInngest(database.db, { strandedAfterMs: STRANDED_MS })).toEqual({ handedOff: 0, again: 0 });

    await age(rows, 60, 20);
    const previous = await handOffTimes(rows);
    const before = fakeInngest.calls.length;
    const logs = captureLogs();
    try {
      expect(await handOffToInngest(database.db, { strandedAfterMs: STRANDED_MS })).toEqual({ handedOff: 3, again: 3 });
      expect(logs.lines).toContainEqual(expect.objectContaining({ level: "warn", context: "inngest", handed_over_again: 3, stranded_after_ms: STRANDED_MS }));
    } finally {
      logs.restore();
    }
    const sent = fakeInngest.calls.slice(before).flatMap((call) => call.events);
    const delivery = sent.find((e) => e.name === eventNames.delivery)!;
    const email = sent.find((e) => e.name === eventNames.email)!;
    const step = sent.find((e) => e.name === eventNames.step)!;
    // Inngest de-duplicates events by id for 24 h: a re-hand-off carries a new id, derived from the previous hand-off.
    expect(delivery).toMatchObject({ id: `${rows.deliveryId}~${previous[0]!.getTime()}`, data: { deliveryId: rows.deliveryId, endpointId: rows.endpointId } });
    expect(step).toMatchObject({ id: `${rows.stepId}~${previous[2]!.getTime()}`, data: { stepId: rows.stepId } });
    expect(email.data.ids).toEqual([rows.emailId]);
    expect(email.id).not.toBe(fakeInngest.accepted().find((e) => e.name === eventNames.email && e.data.ids.includes(rows.emailId))?.id);
    const now = await handOffTimes(rows);
    now.forEach((at, i) => expect(at!.getTime()).toBeGreaterThan(previous[i]!.getTime()));

    // Marked handed off again: the next pass leaves them to the new run.
    expect(await handOffToInngest(database.db, { strandedAfterMs: STRANDED_MS })).toEqual({ handedOff: 0, again: 0 });
  });

  it("a row still due in the future (a run sleeping until a deployment window closes) is not stranded", async () => {
    const rows = await handedOffRows();
    await age(rows, 60 * 24 * 3, -60 * 24 * 7);
    expect(await handOffToInngest(database.db, { strandedAfterMs: STRANDED_MS })).toEqual({ handedOff: 0, again: 0 });
  });

  it("finished rows are never handed over again", async () => {
    const rows = await handedOffRows();
    await age(rows, 60, 60);
    await database.db.update(webhookDeliveries).set({ status: "delivered" }).where(eq(webhookDeliveries.id, rows.deliveryId));
    await database.db.update(emailMessages).set({ status: "sent" }).where(eq(emailMessages.id, rows.emailId));
    await database.db.update(scheduledSteps).set({ status: "done" }).where(eq(scheduledSteps.id, rows.stepId));
    expect(await handOffToInngest(database.db, { strandedAfterMs: STRANDED_MS })).toEqual({ handedOff: 0, again: 0 });
  });

  it("the sweep function (@inngest/test) hands stranded rows over again, with INNGEST_STRANDED_AFTER_MS", async () => {
    const rows = await handedOffRows();
    await age(rows, 10, 10);
    const logs = captureLogs();
    try {
      vi.stubEnv("INNGEST_STRANDED_AFTER_MS", String(20 * 60_000));
      const notYet = await new InngestTestEngine({ function: functions[3] }).execute();
      expect(notYet.result).toEqual({ handedOff: 0, again: 0 });
      vi.stubEnv("INNGEST_STRANDED_AFTER_MS", String(5 * 60_000));
      const { result, error } = await new InngestTestEngine({ function: functions[3] }).execute();
      expect(error).toBeUndefined();
      expect(result).toEqual({ handedOff: 3, again: 3 });
    } finally {
      vi.stubEnv("INNGEST_STRANDED_AFTER_MS", "");
      logs.restore();
    }
  });
});

describe("onFailure handlers (the outcome is recorded on the row)", () => {
  it("send-email drops the e-mails still queued with the reason; sent ones stay sent", async () => {
    const [queued, sent] = await database.db.transaction((tx) =>
      queueEmails(tx, [
        { kind: "sign_in", to: "a@example.test", subject: "Sign in", html: "<p>a</p>", text: "a" },
        { kind: "sign_in", to: "b@example.test", subject: "Sign in", html: "<p>b</p>", text: "b" },
      ]),
    );
    await database.db.update(emailMessages).set({ status: "sent" }).where(eq(emailMessages.id, sent.id));
    const onFailure = functions[1].opts.onFailure as unknown as (ctx: unknown) => Promise<unknown>;
    const outcome = await onFailure({
      event: { name: "inngest/function.failed", data: { event: { name: eventNames.email, data: { ids: [queued.id, sent.id] } } } },
      error: new Error("step timed out"),
    });
    expect(outcome).toMatchObject({ recorded: true });
    const rows = await database.db.select().from(emailMessages).where(sql`${emailMessages.id} in (${queued.id}, ${sent.id})`);
    const byId = Object.fromEntries(rows.map((row) => [row.id, row]));
    expect(byId[queued.id]).toMatchObject({ status: "dropped", lastError: "Inngest run failed: step timed out" });
    expect(byId[sent.id].status).toBe("sent");
  });

  it("run-scheduled-step marks the step failed with the reason, and leaves a finished step alone", async () => {
    const trainer = await createTrainer(database.db);
    const pending = await database.db.transaction((tx) => scheduleStep(tx, trainer.workspaceId, "ctf.deploy", { ctfId: "ctf_failing" }, new Date()));
    const done = await database.db.transaction((tx) => scheduleStep(tx, trainer.workspaceId, "ctf.deploy", { ctfId: "ctf_done" }, new Date()));
    await database.db.update(scheduledSteps).set({ status: "done" }).where(eq(scheduledSteps.id, done.id));
    const onFailure = functions[2].opts.onFailure as unknown as (ctx: unknown) => Promise<unknown>;
    for (const step of [pending, done]) {
      await onFailure({
        event: { name: "inngest/function.failed", data: { event: { name: eventNames.step, data: { stepId: step.id, runAt: step.runAt.toISOString() } } } },
        error: new Error("platform unavailable"),
      });
    }
    const [failedRow] = await database.db.select().from(scheduledSteps).where(eq(scheduledSteps.id, pending.id));
    expect(failedRow).toMatchObject({ status: "failed", lastError: "Inngest run failed: platform unavailable" });
    const [doneRow] = await database.db.select().from(scheduledSteps).where(eq(scheduledSteps.id, done.id));
    expect(doneRow.status).toBe("done");
  });

  it("a failure event whose original payload does not match its schema records nothing", async () => {
    const onFailure = functions[2].opts.onFailure as unknown as (ctx: unknown) => Promise<unknown>;
    expect(await onFailure({ event: { name: "inngest/function.failed", data: { event: { name: eventNames.step, data: { stepId: 3 } } } }, error: new Error("x") })).toEqual({
      recorded: false,
    });
  });
});

describe("typed events and permanent failures (@inngest/test)", () => {
  it("run-scheduled-step fails without retry (NonRetriableError) for a step that no longer exists", async () => {
    const { error } = await new InngestTestEngine({
      function: functions[2],
      events: [{ name: eventNames.step, data: { stepId: "stp_gone", runAt: new Date().toISOString() } }],
      steps: [{ id: "until-due", handler: () => null }],
    }).execute();
    expect(error).toMatchObject({ name: "NonRetriableError", message: "scheduled step stp_gone no longer exists" });
  });

  it("a payload that fails its schema is refused before the handler runs", async () => {
    const { error } = await new InngestTestEngine({ function: functions[1], events: [{ name: eventNames.email, data: { ids: [] } }] }).execute();
    expect(error).toMatchObject({ name: "EventValidationError" });
  });
});

describe("chained sleeps", () => {
  it("sleeps in hops of at most INNGEST_MAX_SLEEP_MS, anchored on the event time, then until due", async () => {
    const day = 24 * 3_600_000;
    vi.stubEnv("INNGEST_MAX_SLEEP_MS", String(7 * day));
    try {
      const calls: [string, string][] = [];
      const step = {
        sleepUntil: async (id: string, until: Date) => void calls.push([id, until.toISOString()]),
        run: async <T,>(_id: string, fn: () => Promise<T> | T) => fn(),
      };
      const anchor = Date.parse("2026-01-01T00:00:00Z");
      const due = new Date(anchor + 20 * day);
      expect(await sleepUntilChained(step, "until-due", due, anchor)).toBe(2);
      expect(calls).toEqual([
        ["until-due-hop-1", new Date(anchor + 7 * day).toISOString()],
        ["until-due-hop-2", new Date(anchor + 14 * day).toISOString()],
        ["until-due", due.toISOString()],
      ]);
      calls.length = 0;
      expect(await sleepUntilChained(step, "until-due", new Date(anchor + 7 * day), anchor)).toBe(0);
      expect(calls).toEqual([["until-due", new Date(anchor + 7 * day).toISOString()]]);
    } finally {
      vi.stubEnv("INNGEST_MAX_SLEEP_MS", "");
    }
  });
});
