import { randomBytes } from "node:crypto";
import { verify as verifyGithubStyle } from "@octokit/webhooks-methods";
import { eq } from "drizzle-orm";
import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { webhookEndpoints, type Event } from "@/db/schema";
import { attemptDelivery } from "@/lib/platform/pipeline/channels/webhook/attempts";
import { publishEvent } from "@/lib/platform/pipeline/channels/webhook/publish";
import { EmbeddedWorker } from "@/lib/platform/pipeline/executors/worker";
import { seal } from "@/lib/platform/security/sealing";
import { createTestResultWebhook, createWebhook } from "@/lib/platform/webhooks/endpoints";
import { stepRegistry } from "@/lib/registry/steps";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { deliveriesOf, settledDeliveries } from "../../helpers/delivery";
import { createTrainer } from "../../helpers/fixtures";
import { receiverPool, verifyCertification, type Receiver, type RecordedRequest } from "../../helpers/receivers";

/**
 * Every delivery of both services carries Standard Webhooks' headers beside the
 * specification's: a real receiver verifies each one with the official `standardwebhooks`
 * library (the key: the secret's UTF-8 bytes, `{ format: "raw" }`) and with the
 * specifications' own verifiers (`@octokit/webhooks-methods` for the competition's
 * `X-Service-Signature: sha256=…`). During a rotation's overlap `webhook-signature` carries a
 * signature per secret; the specification's header is signed with the new secret.
 */

let database: TestDatabase;
let worker: EmbeddedWorker | undefined;
const receivers = receiverPool();

beforeAll(async () => {
  vi.stubEnv("WEBHOOK_ALLOW_PRIVATE", "true");
  vi.stubEnv("WEBHOOK_RETRY_STEP_MS", "200");
  vi.stubEnv("TEST_RESULT_RETRY_SCHEDULE", "200ms,200ms");
  database = await createTestDatabase();
});

afterEach(async () => {
  await worker?.stop();
  worker = undefined;
});

afterAll(async () => {
  await receivers.closeAll();
  await database?.drop();
  vi.unstubAllEnvs();
});

async function startWorker(): Promise<void> {
  worker = new EmbeddedWorker(database, { steps: stepRegistry, pollMs: 50 });
  await worker.start();
}

/** A receiver's check, as the standard describes it: the secret's UTF-8 bytes as the key. */
function standardVerifier(secret: string): Webhook {
  return new Webhook(new TextEncoder().encode(secret), { format: "raw" });
}

function header(request: RecordedRequest, name: string): string {
  return String(request.headers[name]);
}

/** The request's headers as the library takes them (name → value). */
function headersOf(request: RecordedRequest): Record<string, string> {
  return Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(", ") : String(value)]));
}

// Not only ASCII: the key is the secret's UTF-8 bytes (a string given to the library with
// `format: "raw"` would be taken a byte per character, Latin-1).
const competitionSecret = () => `sécret-✓-${randomBytes(12).toString("base64url")}`;

type Endpoints = { workspaceId: string; results: { id: string; secret: string }; competition: { id: string; secret: string } };

async function endpoints(resultsReceiver: Receiver, competitionReceiver: Receiver): Promise<Endpoints> {
  const { workspaceId } = await createTrainer(database.db);
  const results = await createTestResultWebhook(database.db, workspaceId, { url: resultsReceiver.url });
  const secret = competitionSecret();
  const competition = await createWebhook(database.db, workspaceId, { url: competitionReceiver.url, events: [], secret }, "api");
  return { workspaceId, results: { id: results.id, secret: results.secret }, competition: { id: competition.id, secret } };
}

async function publishBoth(workspaceId: string): Promise<{ completed: Event; deployed: Event }> {
  return database.db.transaction(async (tx) => ({
    completed: await publishEvent(tx, workspaceId, "test.completed", {
      test: "STDHOOKS",
      score: 100,
      correct: 2,
      questions: 2,
      recipient: { email: "ada@example.test", name: "Ada Ünicode ✓" },
      domains: [{ id: 1, name: "Crypto — basics", percent: 100, correct: 2, questions: 2 }],
      passed: true,
    }),
    deployed: await publishEvent(tx, workspaceId, "ctf.deployed", { managed_ctf_id: "mctf_std", title: "Standard «CTF»", url: "https://ctf.example.test", is_public: true }),
  }));
}

describe("Standard Webhooks headers on every delivery of both services (embedded executor)", () => {
  let setup: Endpoints;
  let published: { completed: Event; deployed: Event };
  let results: Receiver;
  let competition: Receiver;

  beforeAll(async () => {
    // One failure each: two attempts of the same message.
    results = await receivers.start({ kind: "failThenOk", failures: 1 }, "std-results");
    competition = await receivers.start({ kind: "failThenOk", failures: 1 }, "std-competition");
    setup = await endpoints(results, competition);
    await startWorker();
    published = await publishBoth(setup.workspaceId);
    await settledDeliveries(database.db, setup.workspaceId, setup.results.id);
    await settledDeliveries(database.db, setup.workspaceId, setup.competition.id);
    await worker!.stop();
  });

  it("every attempt verifies with standardwebhooks, keyed with the secret's UTF-8 bytes", async () => {
    for (const [receiver, secret] of [
      [results, setup.results.secret],
      [competition, setup.competition.secret],
    ] as const) {
      expect(receiver.requests).toHaveLength(2);
      for (const request of receiver.requests) {
        const body = request.raw.toString("utf8");
        expect(standardVerifier(secret).verify(body, headersOf(request))).toEqual(JSON.parse(body));
        expect(header(request, "webhook-signature")).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
      }
    }
  });

  it("and with the specifications' verifiers: X-Webhook-Signature (hex) and X-Service-Signature with @octokit/webhooks-methods", async () => {
    for (const request of results.requests) expect(verifyCertification(request.raw, request.headers, setup.results.secret)).toBe("valid");
    for (const request of competition.requests) {
      expect(await verifyGithubStyle(setup.competition.secret, request.raw.toString("utf8"), header(request, "x-service-signature"))).toBe(true);
    }
  });

  it("webhook-id is the event id on every attempt; webhook-timestamp is each attempt's own time", async () => {
    for (const [receiver, endpointId, event] of [
      [results, setup.results.id, published.completed],
      [competition, setup.competition.id, published.deployed],
    ] as const) {
      const [delivery] = await deliveriesOf(database.db, setup.workspaceId, endpointId);
      expect(delivery.attempts.map((attempt) => attempt.ok)).toEqual([false, true]);
      expect(receiver.requests.map((request) => header(request, "webhook-id"))).toEqual([event.id, event.id]);
      expect(receiver.requests.map((request) => Number(header(request, "webhook-timestamp")))).toEqual(
        delivery.attempts.map((attempt) => Math.floor(Date.parse(attempt.started_at) / 1000)),
      );
    }
    // The competition body's own clock is the same second.
    for (const request of competition.requests) expect(JSON.parse(request.raw.toString("utf8")).delivered_at).toBe(Number(header(request, "webhook-timestamp")));
  });

  it("a receiver refuses a replay (the same delivery 6 minutes later, or re-timed), another key, and altered bytes", () => {
    const [request] = results.requests;
    const body = request.raw.toString("utf8");
    const receiver = standardVerifier(setup.results.secret);
    const sentAt = Number(header(request, "webhook-timestamp")) * 1000;
    const later = vi.spyOn(Date, "now").mockReturnValue(sentAt + 6 * 60_000);
    try {
      expect(() => receiver.verify(body, headersOf(request))).toThrow(/timestamp too old/);
    } finally {
      later.mockRestore();
    }
    const old = new Date(Date.now() - 10 * 60_000);
    const retimed = { ...headersOf(request), "webhook-timestamp": String(Math.floor(old.getTime() / 1000)), "webhook-signature": receiver.sign(header(request, "webhook-id"), old, body) };
    expect(() => receiver.verify(body, retimed)).toThrow(/timestamp too old/);
    expect(() => standardVerifier(setup.competition.secret).verify(body, headersOf(request))).toThrow(WebhookVerificationError);
    expect(() => receiver.verify(body.replace('"score":100', '"score":99'), headersOf(request))).toThrow(/No matching signature/);
    // The library's default reading of a whsec_ secret (base64 after the prefix) fails: the
    // base64url secret does not decode, or decodes to another key.
    expect(() => new Webhook(setup.results.secret).verify(body, headersOf(request))).toThrow();
  });
});

describe("signing during a rotation's overlap", () => {
  type Rotated = { workspaceId: string; endpointId: string; current: string; previous: string; receiver: Receiver };

  /** An endpoint whose secret was rotated: the new one sealed as its secret, the old one as previous until `expiresAt`. */
  async function rotated(kind: "certification" | "competition", previousSealed: (old: string) => string, expiresAt: Date): Promise<Rotated> {
    const receiver = await receivers.start({ kind: "ok" }, `rotated-${kind}`);
    const { workspaceId } = await createTrainer(database.db);
    const previous = kind === "certification" ? "" : competitionSecret();
    const created =
      kind === "certification"
        ? await createTestResultWebhook(database.db, workspaceId, { url: receiver.url })
        : { ...(await createWebhook(database.db, workspaceId, { url: receiver.url, events: [], secret: previous }, "api")), secret: previous };
    const old = created.secret;
    const current = kind === "certification" ? `whsec_${randomBytes(24).toString("base64url")}` : competitionSecret();
    await database.db
      .update(webhookEndpoints)
      .set({ secretSealed: seal("webhook_endpoints.secret", current), previousSecretSealed: previousSealed(old), previousSecretExpiresAt: expiresAt })
      .where(eq(webhookEndpoints.id, created.id));
    return { workspaceId, endpointId: created.id, current, previous: old, receiver };
  }

  const publishTo = (kind: "certification" | "competition", workspaceId: string) =>
    database.db.transaction((tx) =>
      kind === "certification"
        ? publishEvent(tx, workspaceId, "test.completed", { test: "ROTATE", score: 0, correct: 0, questions: 1, recipient: { email: "r@example.test", name: "R" }, domains: [], passed: null })
        : publishEvent(tx, workspaceId, "ctf.deleted", { managed_ctf_id: "mctf_rot", title: "Rotated", deleted_at: new Date().toISOString() }),
    );

  /** Delivers the endpoint's one delivery through `path`: the embedded worker's batch, or the one-at-a-time attempt Inngest runs. */
  async function deliver(endpoint: Rotated, kind: "certification" | "competition", path: "embedded" | "inngest"): Promise<RecordedRequest> {
    if (path === "embedded") await startWorker();
    await publishTo(kind, endpoint.workspaceId);
    if (path === "inngest") {
      const [delivery] = await deliveriesOf(database.db, endpoint.workspaceId, endpoint.endpointId);
      expect(await attemptDelivery(database.db, delivery.id)).toEqual({ outcome: "delivered", attempt: 1 });
    }
    const [delivery] = await settledDeliveries(database.db, endpoint.workspaceId, endpoint.endpointId);
    expect(delivery.status).toBe("delivered");
    const [request] = await endpoint.receiver.waitForRequests(1);
    return request;
  }

  const specValid = async (kind: "certification" | "competition", request: RecordedRequest, secret: string) =>
    kind === "certification"
      ? verifyCertification(request.raw, request.headers, secret) === "valid"
      : verifyGithubStyle(secret, request.raw.toString("utf8"), header(request, "x-service-signature"));

  const cases = [
    ["certification", "embedded"],
    ["competition", "embedded"],
    ["certification", "inngest"],
    ["competition", "inngest"],
  ] as const;

  it.each(cases)("%s, %s: both secrets verify webhook-signature (new first); the specification's header is signed with the new one", async (kind, path) => {
    const endpoint = await rotated(kind, (old) => seal("webhook_endpoints.secret", old), new Date(Date.now() + 24 * 3_600_000));
    const request = await deliver(endpoint, kind, path);
    const body = request.raw.toString("utf8");
    const signatures = header(request, "webhook-signature").split(" ");
    expect(signatures).toHaveLength(2);
    expect(signatures[0]).toBe(standardVerifier(endpoint.current).sign(header(request, "webhook-id"), new Date(Number(header(request, "webhook-timestamp")) * 1000), body));
    expect(standardVerifier(endpoint.current).verify(body, headersOf(request))).toEqual(JSON.parse(body));
    expect(standardVerifier(endpoint.previous).verify(body, headersOf(request))).toEqual(JSON.parse(body));
    expect(await specValid(kind, request, endpoint.current)).toBe(true);
    expect(await specValid(kind, request, endpoint.previous)).toBe(false);
  });

  it.each(cases)("%s, %s: once the overlap is over, the new secret alone signs", async (kind, path) => {
    const endpoint = await rotated(kind, (old) => seal("webhook_endpoints.secret", old), new Date(Date.now() - 1_000));
    const request = await deliver(endpoint, kind, path);
    const body = request.raw.toString("utf8");
    expect(header(request, "webhook-signature").split(" ")).toHaveLength(1);
    expect(standardVerifier(endpoint.current).verify(body, headersOf(request))).toEqual(JSON.parse(body));
    expect(() => standardVerifier(endpoint.previous).verify(body, headersOf(request))).toThrow(/No matching signature/);
  });

  it.each(cases)("%s, %s: a previous secret that does not open is left out; the delivery still goes, signed with the new one", async (kind, path) => {
    const endpoint = await rotated(kind, () => "v1.not-a-sealed-value", new Date(Date.now() + 3_600_000));
    const request = await deliver(endpoint, kind, path);
    const body = request.raw.toString("utf8");
    expect(header(request, "webhook-signature").split(" ")).toHaveLength(1);
    expect(standardVerifier(endpoint.current).verify(body, headersOf(request))).toEqual(JSON.parse(body));
    expect(await specValid(kind, request, endpoint.current)).toBe(true);
  });
});
