import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { webhookDeliveries } from "@/db/schema";
import { SESSION_RATE_LIMIT } from "@/lib/platform/ratelimit/session";
import { createWebhook } from "@/lib/platform/webhooks/endpoints";
import { createWebhookInput } from "@/lib/platform/webhooks/schemas";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { createTrainer, type Trainer } from "../../helpers/fixtures";
import { call } from "../../helpers/http";
import { signInAs } from "../../helpers/session";

// Dashboard writes (a signed-in session, on /api/v1 and /api/app alike) count against a bucket per signed-in user:
// 120 changes per 60 s, like an API key, with the same 429 and headers as /api/v1. On
// PostgreSQL the simultaneous calls below really race (pool of 20); the count stays exact.

// The dashboard routes read the session: the trainer signed in with signInAs.
vi.mock("@/lib/platform/auth/session", () => import("../../helpers/session"));

const testEventRoute = await import("@/app/api/app/webhooks/[id]/test/route");
// The dashboard lists and adds endpoints through /api/v1 with its session: the same bucket.
const webhooksRoute = await import("@/app/api/v1/webhooks/route");

let database: TestDatabase;
const sameOrigin = { origin: "http://localhost", "x-forwarded-host": "localhost" };

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

async function signedInTrainer(): Promise<{ trainer: Trainer; endpointId: string }> {
  const trainer = await createTrainer(database.db);
  signInAs(trainer);
  // Never dialled: no executor runs in this file; deliveries are only counted.
  const endpoint = await createWebhook(database.db, trainer.workspaceId, createWebhookInput.parse({ url: "https://hooks.example.test/in", events: [] }), "dashboard");
  return { trainer, endpointId: endpoint.id };
}

const sendTestEvent = (endpointId: string) =>
  call(testEventRoute.POST, `/api/app/webhooks/${endpointId}/test`, { method: "POST", params: { id: endpointId }, headers: sameOrigin });

async function deliveriesTo(endpointId: string): Promise<number> {
  const [{ count }] = await database.db
    .select({ count: sql<number>`count(*)::int` })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpointId, endpointId));
  return Number(count);
}

describe("dashboard writes are limited per signed-in user", () => {
  it(`${SESSION_RATE_LIMIT.requests + 10} "send test event" calls at once: ${SESSION_RATE_LIMIT.requests} deliveries, the rest 429 with the wait`, async () => {
    const { endpointId } = await signedInTrainer();
    const total = SESSION_RATE_LIMIT.requests + 10;
    const answers = await Promise.all(Array.from({ length: total }, () => sendTestEvent(endpointId)));

    const accepted = answers.filter((answer) => answer.status === 202);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(accepted).toHaveLength(SESSION_RATE_LIMIT.requests);
    expect(refused).toHaveLength(10);
    expect(await deliveriesTo(endpointId)).toBe(SESSION_RATE_LIMIT.requests);

    for (const answer of refused) {
      expect(answer.body.error).toMatchObject({ code: "rate_limit_exceeded", retry_after: expect.any(Number) });
      expect(answer.body.error.retry_after).toBeGreaterThanOrEqual(1);
      expect(answer.body.error.retry_after).toBeLessThanOrEqual(60);
      expect(answer.headers.get("retry-after")).toBe(String(answer.body.error.retry_after));
      expect(answer.headers.get("x-ratelimit-limit")).toBe("120");
      expect(answer.headers.get("x-ratelimit-remaining")).toBe("0");
      expect(Number(answer.headers.get("x-ratelimit-reset"))).toBeGreaterThan(Date.now() / 1000);
    }
    // Each admitted write saw its own count (exact, no two read the same log).
    const remaining = accepted.map((answer) => Number(answer.headers.get("x-ratelimit-remaining")));
    expect(new Set(remaining).size).toBe(SESSION_RATE_LIMIT.requests);
    expect(Math.min(...remaining)).toBe(0);
    expect(Math.max(...remaining)).toBe(SESSION_RATE_LIMIT.requests - 1);
    for (const answer of accepted) expect(answer.headers.get("x-ratelimit-limit")).toBe("120");
  });

  it("reads are not limited and carry no rate-limit headers; another user has a bucket of their own", async () => {
    const { endpointId, trainer } = await signedInTrainer();
    for (let i = 0; i < SESSION_RATE_LIMIT.requests; i++) expect((await sendTestEvent(endpointId)).status).toBe(202);
    expect((await sendTestEvent(endpointId)).status).toBe(429);

    const read = await call(webhooksRoute.GET, "/api/v1/webhooks");
    expect(read.status).toBe(200);
    expect(read.headers.get("x-ratelimit-limit")).toBeNull();

    const other = await signedInTrainer();
    expect(other.trainer.userId).not.toBe(trainer.userId);
    const answer = await sendTestEvent(other.endpointId);
    expect(answer.status).toBe(202);
    expect(answer.headers.get("x-ratelimit-remaining")).toBe(String(SESSION_RATE_LIMIT.requests - 1));
  });

  it("a refused write changes nothing: other write routes share the bucket", async () => {
    const { endpointId } = await signedInTrainer();
    for (let i = 0; i < SESSION_RATE_LIMIT.requests; i++) await sendTestEvent(endpointId);
    const created = await call(webhooksRoute.POST, "/api/v1/webhooks", {
      method: "POST",
      headers: sameOrigin,
      body: { url: "https://hooks.example.test/second", events: [] },
    });
    expect(created.status).toBe(429);
    const list = await call(webhooksRoute.GET, "/api/v1/webhooks");
    expect(list.body.data.map((hook: { url: string }) => hook.url)).toEqual(["https://hooks.example.test/in"]);
  });
});
