import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { events, webhookDeliveries, webhookEndpoints } from "@/db/schema";
import { publishEvent } from "@/lib/platform/pipeline/channels/webhook/publish";
import { EmbeddedWorker } from "@/lib/platform/pipeline/executors/worker";
import { submitTest } from "@/lib/certification/taking/taking";
import * as webhooksRoute from "@/app/api/v1/webhooks/route";
import * as webhookRoute from "@/app/api/v1/webhooks/[id]/route";
import * as webhookDeliveriesRoute from "@/app/api/v1/webhooks/[id]/deliveries/route";
import * as testEventRoute from "@/app/api/app/webhooks/[id]/test/route";
import * as testResultsRoute from "@/app/api/app/test-result-webhooks/route";
import * as testResultRoute from "@/app/api/app/test-result-webhooks/[id]/route";
import * as testResultDeliveriesRoute from "@/app/api/app/test-result-webhooks/[id]/deliveries/route";
import * as testsRoute from "@/app/api/v1/tests/route";
import { settledDeliveries, sleep } from "../../helpers/delivery";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { catalogCertification, createTrainer, type Trainer } from "../../helpers/fixtures";
import { call, type CallResult } from "../../helpers/http";
import { receiverPool, verifyCertification } from "../../helpers/receivers";
import { signInAs } from "../../helpers/session";
import { answerAll } from "../../helpers/taking";
import { MAX_ENDPOINTS_PER_WORKSPACE } from "@/lib/platform/pipeline/channels/webhook/events";
import { stepRegistry } from "@/lib/registry/steps";

/**
 * Each webhook endpoint belongs to one service. Competition endpoints (/api/v1/webhooks)
 * take the nine competition events only; test-result endpoints (the dashboard's
 * /api/app/test-result-webhooks) take test.completed only. Neither surface lists, deletes
 * or reads the log of the other's endpoints.
 */

vi.mock("@/lib/platform/auth/session", () => import("../../helpers/session"));

const sameOrigin = { origin: "http://localhost", "x-forwarded-host": "localhost" };

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
  list: (key: string) => call(webhooksRoute.GET, "/api/v1/webhooks", { key }),
  create: (key: string, body: unknown) => call(webhooksRoute.POST, "/api/v1/webhooks", { method: "POST", key, body }),
  remove: (key: string, id: string) => call(webhookRoute.DELETE, `/api/v1/webhooks/${id}`, { method: "DELETE", key, params: { id } }),
  deliveries: (key: string, id: string) => call(webhookDeliveriesRoute.GET, `/api/v1/webhooks/${id}/deliveries`, { key, params: { id } }),
};

/** The dashboard's calls, as the signed-in `trainer`. */
function dashboard(trainer: Trainer) {
  const as = () => signInAs(trainer);
  return {
    createCompetition: (body: unknown) => (as(), call(webhooksRoute.POST, "/api/v1/webhooks", { method: "POST", body, headers: sameOrigin })),
    listTestResults: () => (as(), call(testResultsRoute.GET, "/api/app/test-result-webhooks", { headers: sameOrigin })),
    createTestResult: (body: unknown) => (as(), call(testResultsRoute.POST, "/api/app/test-result-webhooks", { method: "POST", body, headers: sameOrigin })),
    removeTestResult: (id: string) => (as(), call(testResultRoute.DELETE, `/api/app/test-result-webhooks/${id}`, { method: "DELETE", params: { id }, headers: sameOrigin })),
    testResultDeliveries: (id: string) => (as(), call(testResultDeliveriesRoute.GET, `/api/app/test-result-webhooks/${id}/deliveries`, { params: { id }, headers: sameOrigin })),
    sendTestEvent: (id: string) => (as(), call(testEventRoute.POST, `/api/app/webhooks/${id}/test`, { method: "POST", params: { id }, headers: sameOrigin })),
  };
}

function expect422(result: CallResult, field: string, message: RegExp): void {
  expect(result.status, JSON.stringify(result.body)).toBe(422);
  expect(result.body.error.code).toBe("validation_failed");
  const named = result.body.error.fields as { field: string; message: string }[];
  expect(named).toContainEqual({ field, message: expect.stringMatching(message) });
}

async function endpointCount(workspaceId: string): Promise<number> {
  return (await database.db.select({ id: webhookEndpoints.id }).from(webhookEndpoints).where(eq(webhookEndpoints.workspaceId, workspaceId))).length;
}

describe("POST /api/v1/webhooks registers competition endpoints only", () => {
  it("refuses test.completed (422 naming the field, pointing to test-result endpoints) from a key and from the dashboard", async () => {
    const trainer = await createTrainer(database.db);
    expect422(await api.create(trainer.secret, { url: "https://example.com/hook", events: ["test.completed"] }), "events.0", /test-result endpoint/);
    expect422(await api.create(trainer.secret, { url: "https://example.com/hook", events: ["ctf.deployed", "test.completed"] }), "events.1", /not a competition event/);
    expect422(await dashboard(trainer).createCompetition({ url: "https://example.com/hook", events: ["test.completed"] }), "events.0", /test-result endpoint/);
    expect(await endpointCount(trainer.workspaceId)).toBe(0);
  });

  it("refuses an unknown event name, listing the nine", async () => {
    const trainer = await createTrainer(database.db);
    const result = await api.create(trainer.secret, { url: "https://example.com/hook", events: ["ctf.exploded"] });
    expect422(result, "events.0", /^Unknown event\. Available: ctf\.deployed, /);
    expect(result.body.error.fields[0].message).not.toContain("test.completed");
    expect(await endpointCount(trainer.workspaceId)).toBe(0);
  });
});

describe("two surfaces: /api/v1/webhooks (competition) and /api/app/test-result-webhooks (dashboard)", () => {
  // Test events are sent while the worker runs: to a port where nothing listens, never off the machine.
  const nowhere = (path: string) => `http://127.0.0.1:9/${path}`;
  let trainer: Trainer;
  let competitionId: string;
  let testResultId: string;
  let testResultSecret: string;

  beforeAll(async () => {
    trainer = await createTrainer(database.db);
    competitionId = (await api.create(trainer.secret, { url: nowhere("competition"), events: [] })).body.id;
    const created = await dashboard(trainer).createTestResult({ url: nowhere("results") });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    testResultId = created.body.id;
    testResultSecret = created.body.secret;
  });

  it("a test-result endpoint: an address, a generated whsec_ secret returned once, test.completed only", async () => {
    expect(testResultSecret).toMatch(/^whsec_[A-Za-z0-9_-]{20,}$/);
    const listed = await dashboard(trainer).listTestResults();
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([
      { id: testResultId, url: nowhere("results"), events: ["test.completed"], created_at: expect.any(String), enabled: true, disabled_at: null, disabled_reason: null },
    ]);
    expect(JSON.stringify(listed.body)).not.toContain(testResultSecret);
    expect(listed.body.pagination).toMatchObject({ total: 1 });
    // Only the address is taken: a secret or events in the body are refused, each named, and nothing is made.
    const again = await dashboard(trainer).createTestResult({ url: "https://example.com/results-2", secret: "s".repeat(20), events: ["ctf.deployed"] });
    expect(again.status).toBe(422);
    expect(again.body.error.fields.map((f: { field: string }) => f.field).sort()).toEqual(["events", "secret"]);
    expect((await dashboard(trainer).listTestResults()).body.pagination).toMatchObject({ total: 1 });
  });

  it("GET /api/v1/webhooks lists the competition endpoints only, with the nine available_events", async () => {
    const listed = await api.list(trainer.secret);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((w: { id: string }) => w.id)).toEqual([competitionId]);
    expect(listed.body.pagination).toMatchObject({ total: 1 });
    expect(listed.body.available_events).toHaveLength(9);
    expect(listed.body.available_events).not.toContain("test.completed");
  });

  it("neither surface deletes or reads the log of the other's endpoints (404, nothing deleted)", async () => {
    for (const result of [await api.remove(trainer.secret, testResultId), await api.deliveries(trainer.secret, testResultId)]) {
      expect(result.status).toBe(404);
      expect(result.body.error.message).toBe("Webhook not found.");
    }
    expect((await dashboard(trainer).removeTestResult(competitionId)).status).toBe(404);
    expect((await dashboard(trainer).testResultDeliveries(competitionId)).status).toBe(404);
    expect(await endpointCount(trainer.workspaceId)).toBe(2);
    // And another workspace's test-result endpoint is not found either.
    expect((await dashboard(await createTrainer(database.db)).removeTestResult(testResultId)).status).toBe(404);
    expect(await endpointCount(trainer.workspaceId)).toBe(2);
  });

  it("send test event: test.completed to a test-result endpoint; a competition event to a competition endpoint", async () => {
    const own = dashboard(trainer);
    const subscribed = (await api.create(trainer.secret, { url: nowhere("joined"), events: ["member.joined"] })).body.id;
    expect((await own.sendTestEvent(testResultId)).body).toMatchObject({ event: "test.completed" });
    expect((await own.sendTestEvent(competitionId)).body).toMatchObject({ event: "ctf.deployed" });
    expect((await own.sendTestEvent(subscribed)).body).toMatchObject({ event: "member.joined" });
    const log = await own.testResultDeliveries(testResultId);
    expect(log.status).toBe(200);
    expect(log.body.data.map((d: { event: string }) => d.event)).toEqual(["test.completed"]);
    expect((await api.deliveries(trainer.secret, competitionId)).body.data.map((d: { event: string }) => d.event)).toEqual(["ctf.deployed"]);
    await api.remove(trainer.secret, subscribed);
  });

  it("counts the endpoint limit per service", async () => {
    const full = await createTrainer(database.db);
    const own = dashboard(full);
    for (let i = 0; i < MAX_ENDPOINTS_PER_WORKSPACE; i++) expect((await own.createTestResult({ url: `https://example.com/r${i}` })).status).toBe(201);
    const over = await own.createTestResult({ url: "https://example.com/one-too-many" });
    expect(over.status).toBe(409);
    expect(over.body.error.message).toContain("test-result webhook endpoints");
    expect((await api.create(full.secret, { url: "https://example.com/competition", events: [] })).status).toBe(201);
  });
});

describe("delivery by service", () => {
  it("a completed test: one delivery to the test-result endpoint (certification format, valid signature), none to an all-events competition endpoint", async () => {
    const trainer = await createTrainer(database.db);
    const results = await receivers.start({ kind: "ok" }, "test-results");
    const competition = await receivers.start({ kind: "ok" }, "competition-all");
    const testResult = (await dashboard(trainer).createTestResult({ url: results.url })).body as { id: string; secret: string };
    const allEvents = (await api.create(trainer.secret, { url: competition.url, events: [] })).body as { id: string };

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

    const [completed] = await database.db.select().from(events).where(and(eq(events.workspaceId, trainer.workspaceId), eq(events.type, "test.completed")));
    const [request] = await results.waitForRequests(1);
    const [delivery] = await settledDeliveries(database.db, trainer.workspaceId, testResult.id);
    expect(delivery).toMatchObject({ status: "delivered", event: "test.completed", event_id: completed.id });

    expect(request.headers["x-webhook-event"]).toBe("test.completed");
    expect(request.headers["x-webhook-event-id"]).toBe(completed.id);
    expect(request.headers["x-service-signature"]).toBeUndefined();
    expect(verifyCertification(request.raw, request.headers, testResult.secret)).toBe("valid");
    const body = JSON.parse(request.raw.toString("utf8"));
    expect(Object.keys(body).sort()).toEqual(["event", "payload", "sent_at"]);
    expect(body.payload).toMatchObject({ test: made.body.code, score: 100, correct: 2, questions: 2, recipient: { email: "ada@example.com", name: "Ada" }, event_id: completed.id });

    await sleep(300);
    expect(results.requests).toHaveLength(1);
    expect(competition.requests).toHaveLength(0);
    expect(await database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, allEvents.id))).toEqual([]);
  });

  it("a competition event: none to a test-result endpoint", async () => {
    const trainer = await createTrainer(database.db);
    const results = await receivers.start({ kind: "ok" }, "test-results-quiet");
    const competition = await receivers.start({ kind: "ok" }, "competition-deployed");
    const testResult = (await dashboard(trainer).createTestResult({ url: results.url })).body as { id: string };
    const subscribed = (await api.create(trainer.secret, { url: competition.url, events: ["ctf.deployed"] })).body as { id: string };

    await database.db.transaction((tx) =>
      publishEvent(tx, trainer.workspaceId, "ctf.deployed", { managed_ctf_id: "mctf_services", title: "Services", url: "https://ctf.example.test", is_public: true }),
    );
    await competition.waitForRequests(1);
    await settledDeliveries(database.db, trainer.workspaceId, subscribed.id);
    await sleep(300);
    expect(results.requests).toHaveLength(0);
    expect(await database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, testResult.id))).toEqual([]);
  });
});
