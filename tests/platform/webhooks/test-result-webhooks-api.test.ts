import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { webhookDeliveries, webhookEndpoints } from "@/db/schema";
import { submitTest } from "@/lib/certification/taking/taking";
import { EmbeddedWorker } from "@/lib/platform/pipeline/executors/worker";
import { createApiKey } from "@/lib/platform/keys";
import { unseal } from "@/lib/platform/security/sealing";
import type { ApiScope } from "@/lib/kernel/scopes";
import { stepRegistry } from "@/lib/registry/steps";
import * as listRoute from "@/app/api/v1/test-result-webhooks/route";
import * as oneRoute from "@/app/api/v1/test-result-webhooks/[id]/route";
import * as deliveriesRoute from "@/app/api/v1/test-result-webhooks/[id]/deliveries/route";
import * as rotateRoute from "@/app/api/v1/test-result-webhooks/[id]/rotate-secret/route";
import * as recoverRoute from "@/app/api/v1/test-result-webhooks/[id]/recover/route";
import * as redeliverRoute from "@/app/api/v1/test-result-webhooks/[id]/deliveries/[delivery_id]/redeliver/route";
import * as webhooksRoute from "@/app/api/v1/webhooks/route";
import * as webhookRoute from "@/app/api/v1/webhooks/[id]/route";
import * as testsRoute from "@/app/api/v1/tests/route";
import { settledDeliveries } from "../../helpers/delivery";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { catalogCertification, createTrainer, type Trainer } from "../../helpers/fixtures";
import { call, type CallResult } from "../../helpers/http";
import { type RecordedRequest, receiverPool, verifyCertification } from "../../helpers/receivers";
import { answerAll } from "../../helpers/taking";

/**
 * /api/v1/test-result-webhooks: test-result endpoints for integrators (an LMS) without the
 * dashboard, end to end with a real receiver; `cert:*` scopes, kept apart from `ctf:admin`.
 */

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

const base = "/api/v1/test-result-webhooks";
const api = {
  list: (key: string) => call(listRoute.GET, base, { key }),
  create: (key: string, body: unknown) => call(listRoute.POST, base, { method: "POST", key, body }),
  update: (key: string, id: string, body: unknown) => call(oneRoute.PATCH, `${base}/${id}`, { method: "PATCH", key, body, params: { id } }),
  remove: (key: string, id: string) => call(oneRoute.DELETE, `${base}/${id}`, { method: "DELETE", key, params: { id } }),
  deliveries: (key: string, id: string, query: Record<string, string> = {}) => call(deliveriesRoute.GET, `${base}/${id}/deliveries`, { key, params: { id }, query }),
  rotate: (key: string, id: string) => call(rotateRoute.POST, `${base}/${id}/rotate-secret`, { method: "POST", key, body: {}, params: { id } }),
  recover: (key: string, id: string, since: string) => call(recoverRoute.POST, `${base}/${id}/recover`, { method: "POST", key, body: { since }, params: { id } }),
  redeliver: (key: string, id: string, delivery_id: string) =>
    call(redeliverRoute.POST, `${base}/${id}/deliveries/${delivery_id}/redeliver`, { method: "POST", key, params: { id, delivery_id } }),
};

function expectStatus(result: CallResult, status: number): void {
  expect(result.status, JSON.stringify(result.body)).toBe(status);
}

const eventIdOf = (request: RecordedRequest): string => String(request.headers["x-webhook-event-id"]);

/** A recipient completes a test of `trainer`'s: `test.completed` is published. */
/** A test of two questions that its one recipient, Ada, completes; its code. */
async function completeTest(trainer: Trainer): Promise<string> {
  const { certificationId, domainIds } = await catalogCertification(database.db);
  const made = await call(testsRoute.POST, "/api/v1/tests", {
    method: "POST",
    key: trainer.secret,
    body: { certification_id: certificationId, domains: domainIds.slice(0, 2), questions: 2, recipients: [{ email: "ada@example.com", name: "Ada" }], send_email: false },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const token = made.body.recipients[0].link.split("/t/")[1];
  await answerAll(database.db, token);
  await submitTest(database.db, token);
  return made.body.code;
}

async function keyWith(trainer: Trainer, scopes: ApiScope[]): Promise<string> {
  return (await createApiKey(database.db, trainer.workspaceId, { name: scopes.join(" "), scopes })).secret;
}

describe("/api/v1/test-result-webhooks end to end", () => {
  it("register, receive a completed test, pause (not_sent), recover it once, redeliver, rotate, delete", async () => {
    const trainer = await createTrainer(database.db);
    const admin = await keyWith(trainer, ["cert:admin", "cert:write"]);
    const reader = await keyWith(trainer, ["cert:read"]);
    const receiver = await receivers.start({ kind: "ok" }, "lms");

    const created = await api.create(admin, { url: receiver.url });
    expectStatus(created, 201);
    const { id, secret } = created.body as { id: string; secret: string };
    expect(secret).toMatch(/^whsec_/);
    const listed = await api.list(reader);
    expectStatus(listed, 200);
    expect(listed.body.data).toEqual([expect.objectContaining({ id, url: receiver.url, events: ["test.completed"], enabled: true })]);
    expect(JSON.stringify(listed.body)).not.toContain(secret);

    const code = await completeTest(trainer);
    const [first] = await receiver.waitForRequests(1);
    expect(verifyCertification(first.raw, first.headers, secret)).toBe("valid");

    expect((await api.update(admin, id, { enabled: false })).body).toMatchObject({ enabled: false, disabled_reason: "manual" });
    await completeTest(trainer);
    const paused = await api.deliveries(reader, id, { status: "not_sent" });
    expectStatus(paused, 200);
    expect(paused.body.data).toHaveLength(1);
    const missedEvent = paused.body.data[0].event_id as string;

    expectStatus(await api.recover(admin, id, new Date(Date.now() - 60_000).toISOString()), 409);
    expectStatus(await api.update(admin, id, { enabled: true }), 200);
    const since = new Date(Date.now() - 60_000).toISOString();
    const [a, b] = await Promise.all([api.recover(admin, id, since), api.recover(admin, id, since)]);
    expect(a.body.queued + b.body.queued).toBe(1);
    expect((await api.recover(admin, id, since)).body).toEqual({ queued: 0 });
    await receiver.waitForRequests(2);
    await settledDeliveries(database.db, trainer.workspaceId, id, 3);
    expect(receiver.requests.map(eventIdOf)).toEqual([eventIdOf(first), missedEvent]);

    const log = await api.deliveries(reader, id, { status: "delivered", event: "test.completed" });
    expect(log.body.data).toHaveLength(2);
    // Which test and recipient each delivery was for (issue 26), read from the event's data.
    expect(log.body.data[1]).toMatchObject({
      kind: "event",
      about: { sample: false, test: code, recipient_email: "ada@example.com", recipient_name: "Ada", subject: `Test ${code} · Ada <ada@example.com>` },
    });
    const again = await api.redeliver(admin, id, log.body.data[1].id);
    expectStatus(again, 202);
    await receiver.waitForRequests(3);
    expect(eventIdOf(receiver.requests[2])).toBe(eventIdOf(first));

    const rotated = await api.rotate(admin, id);
    expectStatus(rotated, 200);
    const [row] = await database.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
    expect(unseal("webhook_endpoints.secret", row.secretSealed)).toBe(rotated.body.secret);
    expect(unseal("webhook_endpoints.secret", row.previousSecretSealed!)).toBe(secret);
    await completeTest(trainer);
    const [, , , fourth] = await receiver.waitForRequests(4);
    expect(verifyCertification(fourth.raw, fourth.headers, rotated.body.secret)).toBe("valid");

    expectStatus(await api.remove(admin, id), 200);
    expect((await api.list(reader)).body.data).toEqual([]);
    expect(await database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, id))).toEqual([]);
  });

  it("PATCH takes url and enabled only (events, which it has none to choose, is a 422 that changes nothing); validation as creation; the other surface's endpoints are not found (404)", async () => {
    const trainer = await createTrainer(database.db);
    const id = (await api.create(trainer.secret, { url: "https://example.com/results" })).body.id;
    const competition = (await call(webhooksRoute.POST, "/api/v1/webhooks", { method: "POST", key: trainer.secret, body: { url: "https://example.com/hook", events: [] } })).body.id;

    const withEvents = await api.update(trainer.secret, id, { url: "https://example.com/results-2", events: ["ctf.deployed"] });
    expectStatus(withEvents, 422);
    expect(withEvents.body.error.fields.map((f: { field: string }) => f.field)).toEqual(["events"]);
    const changed = await api.update(trainer.secret, id, { url: "https://example.com/results-2" });
    expectStatus(changed, 200);
    expect(changed.body).toMatchObject({ url: "https://example.com/results-2", events: ["test.completed"] });
    // Creation does not take a secret (it is generated, shown once) nor events: refused, not dropped.
    const before = (await api.list(trainer.secret)).body.pagination.total;
    const withSecret = await api.create(trainer.secret, { url: "https://example.com/other", secret: "my-own-secret-0123456789" });
    expectStatus(withSecret, 422);
    expect(withSecret.body.error.fields.map((f: { field: string }) => f.field)).toEqual(["secret"]);
    expect((await api.list(trainer.secret)).body.pagination.total).toBe(before);
    const bad = await api.update(trainer.secret, id, { url: "mailto:lms@example.com" });
    expectStatus(bad, 422);
    expect(bad.body.error.fields[0].field).toBe("url");

    for (const result of [await api.update(trainer.secret, competition, { enabled: false }), await api.rotate(trainer.secret, competition), await api.deliveries(trainer.secret, competition)]) {
      expectStatus(result, 404);
    }
    expectStatus(await call(webhookRoute.PATCH, `/api/v1/webhooks/${id}`, { method: "PATCH", key: trainer.secret, body: { enabled: false }, params: { id } }), 404);
    const rows = await database.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.workspaceId, trainer.workspaceId));
    expect(rows.every((row) => row.enabled && row.previousSecretSealed === null)).toBe(true);
  });
});

describe("scopes: cert:* for test-result endpoints, ctf:admin for competition endpoints", () => {
  it("a ctf:admin key cannot touch test-result endpoints, a cert:admin key cannot touch competition ones, cert:read only reads", async () => {
    const trainer = await createTrainer(database.db);
    const ctfAdmin = await keyWith(trainer, ["ctf:admin", "ctf:read"]);
    const certAdmin = await keyWith(trainer, ["cert:admin"]);
    const certRead = await keyWith(trainer, ["cert:read"]);
    const testResult = (await api.create(trainer.secret, { url: "https://example.com/results" })).body.id;
    const competition = (await call(webhooksRoute.POST, "/api/v1/webhooks", { method: "POST", key: trainer.secret, body: { url: "https://example.com/hook", events: [] } })).body.id;

    for (const refused of [
      await api.list(ctfAdmin),
      await api.create(ctfAdmin, { url: "https://example.com/x" }),
      await api.update(ctfAdmin, testResult, { enabled: false }),
      await api.rotate(ctfAdmin, testResult),
      await api.create(certRead, { url: "https://example.com/x" }),
      await api.update(certRead, testResult, { enabled: false }),
      await api.recover(certRead, testResult, new Date().toISOString()),
      await api.remove(certRead, testResult),
      await call(webhookRoute.PATCH, `/api/v1/webhooks/${competition}`, { method: "PATCH", key: certAdmin, body: { enabled: false }, params: { id: competition } }),
    ]) {
      expectStatus(refused, 403);
    }
    expectStatus(await api.list(certRead), 200);
    expectStatus(await api.deliveries(certRead, testResult), 200);
    expectStatus(await api.update(certAdmin, testResult, { enabled: false }), 200);
    expectStatus(await call(webhookRoute.PATCH, `/api/v1/webhooks/${competition}`, { method: "PATCH", key: ctfAdmin, body: { enabled: false }, params: { id: competition } }), 200);
    const rows = await database.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.workspaceId, trainer.workspaceId));
    expect(rows.filter((row) => !row.enabled).map((row) => row.id).sort()).toEqual([testResult, competition].sort());
    expect(rows.every((row) => row.previousSecretSealed === null)).toBe(true);
  });
});
