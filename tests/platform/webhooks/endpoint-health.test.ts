import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { emailMessages, webhookDeliveries, webhookEndpoints } from "@/db/schema";
import type { Db } from "@/db";
import { attemptDelivery } from "@/lib/platform/pipeline/channels/webhook/attempts";
import { recordEndpointHealth } from "@/lib/platform/pipeline/channels/webhook/health";
import { publishEvent } from "@/lib/platform/pipeline/channels/webhook/publish";
import { EmbeddedWorker } from "@/lib/platform/pipeline/executors/worker";
import { createTestResultWebhook, createWebhook } from "@/lib/platform/webhooks/endpoints";
import { stepRegistry } from "@/lib/registry/steps";
import { settledDeliveries, waitUntil } from "../../helpers/delivery";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { createTrainer, type Trainer } from "../../helpers/fixtures";
import { receiverPool } from "../../helpers/receivers";

/**
 * Endpoint health (docs/webhooks.md, "Endpoint health"), against real receivers: the owner is
 * e-mailed once when an endpoint starts failing (a delivery failing 3 attempts in a row, or
 * dropped), at most once a day; after WEBHOOK_DISABLE_AFTER_DAYS of nothing but failures (here
 * a compressed clock: a fraction of a second) the endpoint is disabled, with a mail, and what
 * comes next is not sent; a success ends the run. Both executors' recording paths: one attempt
 * at a time (attemptDelivery, the Inngest function's) and the embedded worker's batches.
 */

let database: TestDatabase;
const receivers = receiverPool();

beforeAll(async () => {
  vi.stubEnv("WEBHOOK_ALLOW_PRIVATE", "true");
  vi.stubEnv("WEBHOOK_RETRY_STEP_MS", "100");
  database = await createTestDatabase();
});

afterAll(async () => {
  await receivers.closeAll();
  await database?.drop();
  vi.unstubAllEnvs();
});

const deleted = (n: number) => ({ managed_ctf_id: `ctf_health${n}`, title: `Health ${n}`, deleted_at: new Date().toISOString() });

async function mails(db: Db, trainer: Trainer, kind: string) {
  return db
    .select()
    .from(emailMessages)
    .where(and(eq(emailMessages.workspaceId, trainer.workspaceId), eq(emailMessages.kind, kind)));
}

async function endpointRow(db: Db, id: string) {
  const [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
  return row;
}

/** The one delivery of `eventId` to `endpointId`. */
async function deliveryOf(db: Db, endpointId: string, eventId: string) {
  const [row] = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.eventId, eventId)));
  return row;
}

describe("one attempt at a time (the Inngest executor's path)", () => {
  it("mails the owner once when the endpoint starts failing, disables it after the (compressed) days of failures, with a mail, and sends nothing more", async () => {
    const db = database.db;
    const trainer = await createTrainer(db);
    const receiver = await receivers.start({ kind: "status", status: 500 });
    const hook = await createWebhook(db, trainer.workspaceId, { url: receiver.url, events: [] }, "api");

    const first = await publishEvent(db, trainer.workspaceId, "ctf.deleted", deleted(1));
    const firstDelivery = await deliveryOf(db, hook.id, first.id);
    expect(await attemptDelivery(db, firstDelivery.id)).toMatchObject({ outcome: "retry", attempt: 1 });
    // One failed attempt starts the run; the endpoint does not count as failing yet.
    const afterOne = await endpointRow(db, hook.id);
    expect(afterOne.failingSince).toBeInstanceOf(Date);
    expect(afterOne.healthMailedAt).toBeNull();
    expect(await mails(db, trainer, "webhook_failing")).toHaveLength(0);

    expect(await attemptDelivery(db, firstDelivery.id)).toMatchObject({ outcome: "retry", attempt: 2 });
    expect(await attemptDelivery(db, firstDelivery.id)).toMatchObject({ outcome: "dropped", attempt: 3 });
    const failing = await mails(db, trainer, "webhook_failing");
    expect(failing).toHaveLength(1);
    expect(failing[0].to).toBe(trainer.email);
    expect(failing[0].subject).toBe(`Webhook endpoint failing: ${receiver.url}`);
    expect(failing[0].text).toContain("HTTP 500");
    expect(failing[0].text).toContain("5 days");
    const mailed = await endpointRow(db, hook.id);
    expect(mailed.healthMailedAt).toBeInstanceOf(Date);
    expect(mailed.failingSince).toEqual(afterOne.failingSince);

    // A second failing delivery the same day: no second mail.
    const second = await publishEvent(db, trainer.workspaceId, "ctf.deleted", deleted(2));
    const secondDelivery = await deliveryOf(db, hook.id, second.id);
    for (const attempt of [1, 2, 3]) expect(await attemptDelivery(db, secondDelivery.id)).toMatchObject({ attempt });
    expect(await mails(db, trainer, "webhook_failing")).toHaveLength(1);
    expect((await endpointRow(db, hook.id)).enabled).toBe(true);

    // The compressed clock: "5 days" is 0.00001 days (864 ms) of nothing but failures.
    vi.stubEnv("WEBHOOK_DISABLE_AFTER_DAYS", "0.00001");
    try {
      await waitUntil("the run of failures to outlast 864 ms", async () => {
        const [row] = await db
          .select({ over: sql<boolean>`${webhookEndpoints.failingSince} <= now() - interval '900 milliseconds'` })
          .from(webhookEndpoints)
          .where(eq(webhookEndpoints.id, hook.id));
        return row.over;
      });
      const third = await publishEvent(db, trainer.workspaceId, "ctf.deleted", deleted(3));
      expect(await attemptDelivery(db, (await deliveryOf(db, hook.id, third.id)).id)).toMatchObject({ outcome: "retry", attempt: 1 });
    } finally {
      vi.stubEnv("WEBHOOK_DISABLE_AFTER_DAYS", "5");
    }
    const disabled = await endpointRow(db, hook.id);
    expect(disabled).toMatchObject({ enabled: false, disabledReason: "failing" });
    expect(disabled.disabledAt).toBeInstanceOf(Date);
    const disabledMails = await mails(db, trainer, "webhook_disabled");
    expect(disabledMails).toHaveLength(1);
    expect(disabledMails[0].to).toBe(trainer.email);
    expect(disabledMails[0].subject).toBe(`Webhook endpoint disabled: ${receiver.url}`);
    expect(disabledMails[0].text).toContain("enable the endpoint");
    expect(await mails(db, trainer, "webhook_failing")).toHaveLength(1);

    // The next event is not sent to the disabled endpoint.
    const requestsBefore = receiver.requests.length;
    const fourth = await publishEvent(db, trainer.workspaceId, "ctf.deleted", deleted(4));
    await attemptDelivery(db, (await deliveryOf(db, hook.id, fourth.id)).id);
    expect((await deliveryOf(db, hook.id, fourth.id)).status).toBe("not_sent");
    expect(receiver.requests).toHaveLength(requestsBefore);
    expect(await mails(db, trainer, "webhook_disabled")).toHaveLength(1);
  });

  it("mails again the next day while the endpoint keeps failing", async () => {
    const db = database.db;
    const trainer = await createTrainer(db);
    const receiver = await receivers.start({ kind: "status", status: 503 });
    const hook = await createWebhook(db, trainer.workspaceId, { url: receiver.url, events: [] }, "api");
    for (const n of [1, 2]) {
      if (n === 2) {
        // A day later (the clock compressed by moving the last mail back 25 hours).
        await db
          .update(webhookEndpoints)
          .set({ healthMailedAt: sql`now() - interval '25 hours'` })
          .where(eq(webhookEndpoints.id, hook.id));
      }
      const event = await publishEvent(db, trainer.workspaceId, "ctf.deleted", deleted(10 + n));
      const delivery = await deliveryOf(db, hook.id, event.id);
      for (const attempt of [1, 2, 3]) expect(await attemptDelivery(db, delivery.id)).toMatchObject({ attempt });
      expect(await mails(db, trainer, "webhook_failing")).toHaveLength(n);
    }
  });

  it("counts a test-result endpoint failing after 3 failed attempts of one delivery, before its (day-long) schedule drops it", async () => {
    const db = database.db;
    const trainer = await createTrainer(db);
    const receiver = await receivers.start({ kind: "status", status: 502 });
    const hook = await createTestResultWebhook(db, trainer.workspaceId, { url: receiver.url });
    const event = await publishEvent(db, trainer.workspaceId, "test.completed", {
      test: "HEALTH-2",
      score: 0,
      correct: 0,
      questions: 1,
      recipient: { email: "s@example.test", name: "S" },
      domains: [],
      passed: false,
    });
    const delivery = await deliveryOf(db, hook.id, event.id);
    await attemptDelivery(db, delivery.id);
    await attemptDelivery(db, delivery.id);
    expect(await mails(db, trainer, "webhook_failing")).toHaveLength(0);
    expect(await attemptDelivery(db, delivery.id)).toMatchObject({ attempt: 3 });
    const [mail] = await mails(db, trainer, "webhook_failing");
    expect(mail.text).toContain("test-result endpoint");
    expect(mail.text).toContain("HTTP 502");
  });

  it("ends the run of failures on a success, without a mail", async () => {
    const db = database.db;
    const trainer = await createTrainer(db);
    const receiver = await receivers.start({ kind: "failThenOk", failures: 2 });
    const hook = await createTestResultWebhook(db, trainer.workspaceId, { url: receiver.url });
    const event = await publishEvent(db, trainer.workspaceId, "test.completed", {
      test: "HEALTH-1",
      score: 50,
      correct: 1,
      questions: 2,
      recipient: { email: "r@example.test", name: "R" },
      domains: [],
      passed: null,
    });
    const delivery = await deliveryOf(db, hook.id, event.id);
    expect(await attemptDelivery(db, delivery.id)).toMatchObject({ outcome: "retry" });
    expect(await attemptDelivery(db, delivery.id)).toMatchObject({ outcome: "retry" });
    expect((await endpointRow(db, hook.id)).failingSince).toBeInstanceOf(Date);
    expect(await attemptDelivery(db, delivery.id)).toMatchObject({ outcome: "delivered", attempt: 3 });
    const row = await endpointRow(db, hook.id);
    expect(row.failingSince).toBeNull();
    expect(row.enabled).toBe(true);
    expect(await mails(db, trainer, "webhook_failing")).toHaveLength(0);
  });

  it("sends one mail when two workers record failing answers of the same endpoint at once", async () => {
    const db = database.db;
    const trainer = await createTrainer(db);
    const hook = await createWebhook(db, trainer.workspaceId, { url: "http://127.0.0.1:9/unused", events: [] }, "api");
    const events = await Promise.all([1, 2].map((n) => publishEvent(db, trainer.workspaceId, "ctf.deleted", deleted(20 + n))));
    const deliveries = await Promise.all(events.map((event) => deliveryOf(db, hook.id, event.id)));
    await Promise.all(
      deliveries.map((delivery) => recordEndpointHealth(db, [{ deliveryId: delivery.id, number: 3, ok: false, dropped: true, error: "HTTP 500" }])),
    );
    expect(await mails(db, trainer, "webhook_failing")).toHaveLength(1);
    expect((await endpointRow(db, hook.id)).failingSince).toBeInstanceOf(Date);
  });
});

describe("the embedded worker's batches", () => {
  it("mails once for a run of dropped deliveries recorded in batches", async () => {
    const db = database.db;
    const worker = new EmbeddedWorker(database, { steps: stepRegistry, pollMs: 50 });
    await worker.start();
    const trainer = await createTrainer(db);
    const receiver = await receivers.start({ kind: "status", status: 500 });
    const hook = await createWebhook(db, trainer.workspaceId, { url: receiver.url, events: [] }, "api");
    try {
      for (const n of [1, 2, 3]) await publishEvent(db, trainer.workspaceId, "ctf.deleted", deleted(30 + n));
      const settled = await settledDeliveries(db, trainer.workspaceId, hook.id, 3);
      expect(settled.map((d) => d.status)).toEqual(["dropped", "dropped", "dropped"]);
      await waitUntil("the failing mail", async () => (await mails(db, trainer, "webhook_failing")).length > 0);
    } finally {
      // Stopping waits for the answers still being recorded, so the count below is final.
      await worker.stop();
    }
    expect(await mails(db, trainer, "webhook_failing")).toHaveLength(1);
    const row = await endpointRow(db, hook.id);
    expect(row.failingSince).toBeInstanceOf(Date);
    expect(row.enabled).toBe(true);
  });
});
