import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { webhookDeliveries, webhookEndpoints } from "@/db/schema";
import { publishEvent } from "@/lib/platform/pipeline/channels/webhook/publish";
import { attemptDelivery } from "@/lib/platform/pipeline/channels/webhook/attempts";
import { EmbeddedWorker } from "@/lib/platform/pipeline/executors/worker";
import { unseal } from "@/lib/platform/security/sealing";
import { newId } from "@/lib/kernel/ids";
import { sampleEventData } from "@/lib/platform/webhooks/samples";
import { sendTestEvent } from "@/lib/platform/webhooks/deliveries";
import { stepRegistry } from "@/lib/registry/steps";
import * as webhooksRoute from "@/app/api/v1/webhooks/route";
import * as webhookRoute from "@/app/api/v1/webhooks/[id]/route";
import * as deliveriesRoute from "@/app/api/v1/webhooks/[id]/deliveries/route";
import * as rotateRoute from "@/app/api/v1/webhooks/[id]/rotate-secret/route";
import * as recoverRoute from "@/app/api/v1/webhooks/[id]/recover/route";
import * as redeliverRoute from "@/app/api/v1/webhooks/[id]/deliveries/[delivery_id]/redeliver/route";
import { settledDeliveries, waitUntil } from "../../helpers/delivery";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { createTrainer, type Trainer } from "../../helpers/fixtures";
import { call, type CallResult } from "../../helpers/http";
import { type Receiver, type RecordedRequest, receiverPool } from "../../helpers/receivers";
import { signInAs } from "../../helpers/session";

/**
 * Managing a competition endpoint after it is registered (PATCH, rotate-secret, recover,
 * redeliver, the delivery log's filters), against real receivers on 127.0.0.1 and the
 * embedded worker. The test-result surface is in test-result-webhooks-api.test.ts.
 */

vi.mock("@/lib/platform/auth/session", () => import("../../helpers/session"));

let database: TestDatabase;
let worker: EmbeddedWorker;
const receivers = receiverPool();

beforeAll(async () => {
  vi.stubEnv("WEBHOOK_ALLOW_PRIVATE", "true");
  vi.stubEnv("WEBHOOK_RETRY_STEP_MS", "200");
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

const api = {
  create: (key: string, body: unknown) => call(webhooksRoute.POST, "/api/v1/webhooks", { method: "POST", key, body }),
  list: (key: string) => call(webhooksRoute.GET, "/api/v1/webhooks", { key }),
  update: (key: string, id: string, body: unknown) => call(webhookRoute.PATCH, `/api/v1/webhooks/${id}`, { method: "PATCH", key, body, params: { id } }),
  rotate: (key: string, id: string, body: unknown = {}) => call(rotateRoute.POST, `/api/v1/webhooks/${id}/rotate-secret`, { method: "POST", key, body, params: { id } }),
  recover: (key: string, id: string, since: string) => call(recoverRoute.POST, `/api/v1/webhooks/${id}/recover`, { method: "POST", key, body: { since }, params: { id } }),
  redeliver: (key: string, id: string, delivery_id: string) =>
    call(redeliverRoute.POST, `/api/v1/webhooks/${id}/deliveries/${delivery_id}/redeliver`, { method: "POST", key, params: { id, delivery_id } }),
  deliveries: (key: string, id: string, query: Record<string, string> = {}) => call(deliveriesRoute.GET, `/api/v1/webhooks/${id}/deliveries`, { key, params: { id }, query }),
};

const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

/** The event id a competition delivery carries (its X-Service-Event-Id header). */
const eventIdOf = (request: RecordedRequest): string => String(request.headers["x-service-event-id"]);

async function endpointTo(trainer: Trainer, receiver: Receiver, events: string[] = []): Promise<string> {
  const created = await api.create(trainer.secret, { url: receiver.url, events });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id;
}

const deployed = (workspaceId: string) => publishEvent(database.db, workspaceId, "ctf.deployed", sampleEventData("ctf.deployed"));

async function deliveryOf(eventId: string, endpointId: string) {
  const rows = await database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, eventId));
  return rows.filter((row) => row.endpointId === endpointId);
}

function expectStatus(result: CallResult, status: number): void {
  expect(result.status, JSON.stringify(result.body)).toBe(status);
}

describe("PATCH /api/v1/webhooks/{id}", () => {
  it("disabled: the next event is recorded not_sent and nothing reaches the receiver; enabled again: the next one is delivered", async () => {
    const trainer = await createTrainer(database.db);
    const receiver = await receivers.start({ kind: "ok" }, "patch");
    const id = await endpointTo(trainer, receiver);

    const disabled = await api.update(trainer.secret, id, { enabled: false });
    expectStatus(disabled, 200);
    expect(disabled.body).toMatchObject({ id, enabled: false, disabled_reason: "manual", disabled_at: expect.any(String) });

    const missed = await deployed(trainer.workspaceId);
    const [row] = await deliveryOf(missed.id, id);
    expect(row).toMatchObject({ status: "not_sent", attempts: 0 });

    const enabled = await api.update(trainer.secret, id, { enabled: true });
    expectStatus(enabled, 200);
    expect(enabled.body).toMatchObject({ enabled: true, disabled_at: null, disabled_reason: null });
    const next = await deployed(trainer.workspaceId);
    await receiver.waitForRequests(1);
    await settledDeliveries(database.db, trainer.workspaceId, id, 2);
    // Only the event published while enabled arrived: the not_sent one was never claimed.
    expect(receiver.requests.map(eventIdOf)).toEqual([next.id]);
    expect((await deliveryOf(missed.id, id))[0]).toMatchObject({ status: "not_sent", attempts: 0 });
    const [endpoint] = await database.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
    expect(endpoint).toMatchObject({ enabled: true, disabledAt: null, disabledReason: null });
  });

  it("a delivery already pending when its endpoint is disabled is recorded not_sent at its attempt, on both executors' paths", async () => {
    const trainer = await createTrainer(database.db);
    const receiver = await receivers.start({ kind: "ok" }, "pending-then-disabled");
    const id = await endpointTo(trainer, receiver);
    await api.update(trainer.secret, id, { enabled: false });

    // The embedded worker's batch claim: a pending row (a sample event is queued as pending whatever the endpoint).
    const { delivery_id } = await sendTestEvent(database.db, trainer.workspaceId, id);
    await waitUntil("the pending delivery recorded not_sent", async () => (await database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, delivery_id)))[0]?.status === "not_sent");

    // One attempt at a time (the Inngest executor's path): a row not yet due, so the worker leaves it alone.
    const event = await deployed(trainer.workspaceId);
    const single = newId("dlv");
    await database.db.insert(webhookDeliveries).values({ id: single, workspaceId: trainer.workspaceId, eventId: event.id, endpointId: id, nextAttemptAt: new Date(Date.now() + 3_600_000) });
    expect(await attemptDelivery(database.db, single)).toEqual({ outcome: "skipped" });
    const [after] = await database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, single));
    expect(after).toMatchObject({ status: "not_sent", attempts: 0 });
    expect(receiver.requests).toHaveLength(0);
  });

  it("changes url and events with creation's validation (422 naming the field), keeps what is absent, and finds no other workspace's endpoint", async () => {
    const trainer = await createTrainer(database.db);
    const id = (await api.create(trainer.secret, { url: "https://example.com/a", events: ["ctf.deployed"] })).body.id;
    const changed = await api.update(trainer.secret, id, { url: "https://example.com/b", events: ["member.joined", "member.joined"] });
    expectStatus(changed, 200);
    expect(changed.body).toMatchObject({ url: "https://example.com/b", events: ["member.joined"], enabled: true });
    expect((await api.update(trainer.secret, id, { enabled: false })).body).toMatchObject({ url: "https://example.com/b", events: ["member.joined"] });

    const refused = await api.update(trainer.secret, id, { url: "ftp://example.com", events: ["test.completed"], enabled: "no" });
    expectStatus(refused, 422);
    expect(refused.body.error.fields.map((f: { field: string }) => f.field).sort()).toEqual(["enabled", "events.0", "url"]);
    expect((await api.list(trainer.secret)).body.data[0]).toMatchObject({ url: "https://example.com/b", enabled: false });

    const stranger = await createTrainer(database.db);
    expectStatus(await api.update(stranger.secret, id, { enabled: true }), 404);
    const [endpoint] = await database.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
    expect(endpoint.enabled).toBe(false);
  });

  it("the dashboard calls the same route with its session", async () => {
    const trainer = await createTrainer(database.db);
    const id = (await api.create(trainer.secret, { url: "https://example.com/a", events: [] })).body.id;
    signInAs(trainer);
    const result = await call(webhookRoute.PATCH, `/api/v1/webhooks/${id}`, {
      method: "PATCH",
      body: { enabled: false },
      params: { id },
      headers: { origin: "http://localhost", "x-forwarded-host": "localhost" },
    });
    expectStatus(result, 200);
    expect(result.body.enabled).toBe(false);
  });
});

describe("POST /api/v1/webhooks/{id}/rotate-secret", () => {
  it("answers a new secret once, stores it sealed, and keeps the previous one sealed for 24 hours", async () => {
    const trainer = await createTrainer(database.db);
    const created = await api.create(trainer.secret, { url: "https://example.com/rotate", events: [] });
    const first = created.body.secret as string;
    const before = Date.now();
    const rotated = await api.rotate(trainer.secret, created.body.id);
    expectStatus(rotated, 200);
    const second = rotated.body.secret as string;
    expect(second).toMatch(/^whsec_/);
    expect(second).not.toBe(first);
    const expires = Date.parse(rotated.body.previous_secret_expires_at);
    expect(expires).toBeGreaterThanOrEqual(before + 24 * 3_600_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 24 * 3_600_000);

    const [row] = await database.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, created.body.id));
    expect(row.secretSealed).not.toContain(second);
    expect(unseal("webhook_endpoints.secret", row.secretSealed)).toBe(second);
    expect(unseal("webhook_endpoints.secret", row.previousSecretSealed!)).toBe(first);
    expect(row.previousSecretExpiresAt!.getTime()).toBe(expires);
    expect(JSON.stringify((await api.list(trainer.secret)).body)).not.toContain(second);

    // Rotating again within the overlap: the previous secret becomes the one current until then.
    const own = "a-caller-chosen-secret-1234";
    expect((await api.rotate(trainer.secret, created.body.id, { secret: own })).body.secret).toBe(own);
    const [again] = await database.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, created.body.id));
    expect(unseal("webhook_endpoints.secret", again.secretSealed)).toBe(own);
    expect(unseal("webhook_endpoints.secret", again.previousSecretSealed!)).toBe(second);
  });

  it("refuses a secret outside 16–128 characters (422) and another workspace's endpoint (404), changing nothing", async () => {
    const trainer = await createTrainer(database.db);
    const id = (await api.create(trainer.secret, { url: "https://example.com/rotate", events: [] })).body.id;
    const [before] = await database.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
    const short = await api.rotate(trainer.secret, id, { secret: "too-short" });
    expectStatus(short, 422);
    expect(short.body.error.fields).toEqual([{ field: "secret", message: "secret must be 16 to 128 characters." }]);
    expectStatus(await api.rotate((await createTrainer(database.db)).secret, id), 404);
    const [after] = await database.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
    expect(after.secretSealed).toBe(before.secretSealed);
    expect(after.previousSecretSealed).toBeNull();
  });
});

describe("POST /api/v1/webhooks/{id}/recover", () => {
  it("delivers an event missed while disabled exactly once, even when called twice and twice at once", async () => {
    const trainer = await createTrainer(database.db);
    const receiver = await receivers.start({ kind: "ok" }, "recover");
    const id = await endpointTo(trainer, receiver);
    const since = ago(60_000);
    await api.update(trainer.secret, id, { enabled: false });
    const missed = [await deployed(trainer.workspaceId), await deployed(trainer.workspaceId)];

    const refused = await api.recover(trainer.secret, id, since);
    expectStatus(refused, 409);
    expect(refused.body.error.message).toMatch(/enable it first/);

    await api.update(trainer.secret, id, { enabled: true });
    const [a, b] = await Promise.all([api.recover(trainer.secret, id, since), api.recover(trainer.secret, id, since)]);
    expectStatus(a, 202);
    expectStatus(b, 202);
    expect(a.body.queued + b.body.queued).toBe(2);
    expect((await api.recover(trainer.secret, id, since)).body).toEqual({ queued: 0 });

    await receiver.waitForRequests(2);
    const log = await settledDeliveries(database.db, trainer.workspaceId, id, 4);
    expect(receiver.requests.map(eventIdOf).sort()).toEqual(missed.map((e) => e.id).sort());
    const redelivered = log.filter((d) => d.redelivery_of !== null);
    expect(redelivered).toHaveLength(2);
    expect(redelivered.every((d) => d.status === "delivered")).toBe(true);
    const originals = log.filter((d) => d.redelivery_of === null);
    expect(new Set(redelivered.map((d) => d.redelivery_of))).toEqual(new Set(originals.map((d) => d.id)));
    // Delivered now: nothing more to recover.
    expect((await api.recover(trainer.secret, id, since)).body).toEqual({ queued: 0 });
    expect(receiver.requests).toHaveLength(2);
  });

  it("queues a dropped delivery again, only those since `since`", async () => {
    const trainer = await createTrainer(database.db);
    const receiver = await receivers.start({ kind: "ok" }, "recover-dropped");
    const id = await endpointTo(trainer, receiver);
    await api.update(trainer.secret, id, { enabled: false });
    const event = await deployed(trainer.workspaceId);
    // Recorded as dropped (all attempts failed), as the delivery engine leaves it.
    await database.db.update(webhookDeliveries).set({ status: "dropped" }).where(eq(webhookDeliveries.eventId, event.id));
    await api.update(trainer.secret, id, { enabled: true });
    expect((await api.recover(trainer.secret, id, new Date().toISOString())).body).toEqual({ queued: 0 });
    expect((await api.recover(trainer.secret, id, ago(60_000))).body).toEqual({ queued: 1 });
    await receiver.waitForRequests(1);
    expect(receiver.requests.map(eventIdOf)).toEqual([event.id]);
  });

  it("refuses a since in the future, older than 14 days or not a date (422 naming since), and another workspace's endpoint (404)", async () => {
    const trainer = await createTrainer(database.db);
    const id = (await api.create(trainer.secret, { url: "https://example.com/r", events: [] })).body.id;
    for (const since of [new Date(Date.now() + 3_600_000).toISOString(), ago(15 * 86_400_000), "yesterday"]) {
      const result = await api.recover(trainer.secret, id, since);
      expectStatus(result, 422);
      expect(result.body.error.fields[0].field).toBe("since");
    }
    expectStatus(await api.recover((await createTrainer(database.db)).secret, id, ago(60_000)), 404);
  });
});

describe("redeliver and the delivery log's filters", () => {
  it("POST …/deliveries/{delivery_id}/redeliver sends the same event again; another endpoint's delivery is not found", async () => {
    const trainer = await createTrainer(database.db);
    const receiver = await receivers.start({ kind: "ok" }, "redeliver");
    const id = await endpointTo(trainer, receiver);
    const other = (await api.create(trainer.secret, { url: "https://example.com/other", events: ["member.joined"] })).body.id;
    const event = await deployed(trainer.workspaceId);
    const [original] = await deliveryOf(event.id, id);
    await receiver.waitForRequests(1);

    expectStatus(await api.redeliver(trainer.secret, other, original.id), 404);
    const again = await api.redeliver(trainer.secret, id, original.id);
    expectStatus(again, 202);
    await receiver.waitForRequests(2);
    expect(receiver.requests.map(eventIdOf)).toEqual([event.id, event.id]);
    const [copy] = await database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, again.body.id));
    expect(copy).toMatchObject({ eventId: event.id, endpointId: id, redeliveryOf: original.id });

    await api.update(trainer.secret, id, { enabled: false });
    expectStatus(await api.redeliver(trainer.secret, id, original.id), 409);
  });

  it("GET …/deliveries narrows by status, event and since", async () => {
    const trainer = await createTrainer(database.db);
    const id = (await api.create(trainer.secret, { url: "https://example.com/filters", events: [] })).body.id;
    await api.update(trainer.secret, id, { enabled: false });
    const first = await deployed(trainer.workspaceId);
    const joined = await publishEvent(database.db, trainer.workspaceId, "member.joined", sampleEventData("member.joined"));
    const cutoff = new Date(Date.now() + 1);
    await database.db.update(webhookDeliveries).set({ createdAt: new Date(cutoff.getTime() - 60_000) }).where(eq(webhookDeliveries.eventId, first.id));
    await database.db.update(webhookDeliveries).set({ status: "dropped" }).where(eq(webhookDeliveries.eventId, joined.id));

    const ids = async (query: Record<string, string>) => {
      const result = await api.deliveries(trainer.secret, id, query);
      expectStatus(result, 200);
      return result.body.data.map((d: { event_id: string }) => d.event_id);
    };
    expect(await ids({})).toEqual([joined.id, first.id]);
    expect(await ids({ status: "not_sent" })).toEqual([first.id]);
    expect(await ids({ status: "dropped" })).toEqual([joined.id]);
    expect(await ids({ event: "ctf.deployed" })).toEqual([first.id]);
    expect(await ids({ since: new Date(cutoff.getTime() - 30_000).toISOString() })).toEqual([joined.id]);
    expect(await ids({ status: "delivered" })).toEqual([]);
    const bad = await api.deliveries(trainer.secret, id, { status: "lost", since: "soon" });
    expectStatus(bad, 422);
    expect(bad.body.error.fields.map((f: { field: string }) => f.field).sort()).toEqual(["since", "status"]);
  });
});
