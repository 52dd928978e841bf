import { randomBytes } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "@/db";
import { webhookAttempts, webhookDeliveries } from "@/db/schema";
import { publishEvent } from "@/lib/platform/pipeline/channels/webhook/publish";
import { EmbeddedWorker } from "@/lib/platform/pipeline/executors/worker";
import { claimDueDeliveries, startDueAttempts, type DueAttempts } from "@/lib/platform/pipeline/channels/webhook/attempts";
import { createWebhook } from "@/lib/platform/webhooks/endpoints";
import { createTestDatabase, onPostgres, type TestDatabase } from "../../helpers/db";
import { createTrainer } from "../../helpers/fixtures";
import { receiverPool, type Receiver } from "../../helpers/receivers";
import { waitUntil } from "../../helpers/delivery";
import type { Database } from "@/db/types";
import { openDatabase } from "@/lib/platform/database";
import { stepRegistry } from "@/lib/registry/steps";

// Which instance started each attempt: the worker passes its own pool's Db to startDueAttempts.
vi.mock("@/lib/platform/pipeline/channels/webhook/attempts", async (importOriginal) => {
  const original = await importOriginal<typeof import("@/lib/platform/pipeline/channels/webhook/attempts")>();
  return { ...original, startDueAttempts: vi.fn(original.startDueAttempts) };
});

const DELIVERIES = 200;

let database: TestDatabase;
let instances: Database[] = [];
const receivers = receiverPool();

/** The test database's URL, as tests/platform/ratelimit/ratelimit.test.ts finds it. */
function testDatabaseUrl(): string {
  const options = (database.db as unknown as { $client: { options: { database: string } } }).$client.options;
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${options.database}`;
  return url.toString();
}

describe.runIf(onPostgres)("two instances sharing the outbox on PostgreSQL", () => {
  beforeAll(async () => {
    vi.stubEnv("WEBHOOK_RETRY_STEP_MS", "300");
    vi.stubEnv("WORKER_LEASE_MS", "10000");
    vi.stubEnv("WEBHOOK_ALLOW_PRIVATE", "true");
    database = await createTestDatabase();
    // Two independent pools stand for two app instances.
    instances = [await openDatabase({ url: testDatabaseUrl(), poolMax: 10 }), await openDatabase({ url: testDatabaseUrl(), poolMax: 10 })];
  });

  afterAll(async () => {
    await receivers.closeAll();
    await Promise.all(instances.map((instance) => instance.close()));
    await database?.drop();
    vi.unstubAllEnvs();
  });

  async function pendingDeliveries(receiver: Receiver, total: number): Promise<{ endpointId: string; ids: string[] }> {
    const trainer = await createTrainer(database.db);
    const hook = await createWebhook(
      database.db,
      trainer.workspaceId,
      { url: receiver.url, events: [], secret: `whsec_${randomBytes(18).toString("base64url")}` },
      "api",
    );
    await database.db.transaction(async (tx) => {
      for (let i = 0; i < total; i++) {
        await publishEvent(tx, trainer.workspaceId, "member.joined", {
          managed_ctf_id: "mctf_claims",
          member_id: `mem_${i}`,
          email: `member${i}@example.test`,
          joined_at: new Date().toISOString(),
        });
      }
    });
    const rows = await database.db.select({ id: webhookDeliveries.id }).from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, hook.id));
    expect(rows).toHaveLength(total);
    return { endpointId: hook.id, ids: rows.map((row) => row.id) };
  }

  it(`delivers ${DELIVERIES} deliveries exactly once between two workers, both doing part of the work`, async () => {
    // The receiver takes 25 ms an answer, as a real one does: a worker's lane (4 in flight) then
    // needs over a second for all of them, so the other instance's polls find work too; with a
    // receiver answering at once, one instance could drain the backlog between two polls.
    const receiver = await receivers.start({ kind: "slow", delayMs: 25 }, "shared");
    const { endpointId, ids } = await pendingDeliveries(receiver, DELIVERIES);
    const claim = vi.mocked(startDueAttempts);
    claim.mockClear();

    const workers = instances.map((instance) => new EmbeddedWorker(instance, { steps: stepRegistry, concurrency: 8, pollMs: 50 }));
    await Promise.all(workers.map((worker) => worker.start()));
    try {
      await waitUntil(
        "every delivery to be delivered",
        async () => {
          const done = await database.db
            .select({ id: webhookDeliveries.id })
            .from(webhookDeliveries)
            .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, "delivered")));
          return done.length === DELIVERIES;
        },
        30_000,
      );
    } finally {
      await Promise.all(workers.map((worker) => worker.stop()));
    }

    const attempts = await database.db.select().from(webhookAttempts).where(inArray(webhookAttempts.deliveryId, ids));
    expect(attempts).toHaveLength(DELIVERIES);
    expect(new Set(attempts.map((a) => a.deliveryId)).size).toBe(DELIVERIES);
    expect(attempts.every((a) => a.ok && a.number === 1)).toBe(true);

    expect(receiver.requests).toHaveLength(DELIVERIES);
    const eventIds = receiver.requests.map((r) => r.headers["x-service-event-id"]);
    expect(new Set(eventIds).size).toBe(DELIVERIES);

    // Every delivery was started in a batch claimed by one of the two instances, and both took a
    // share. (An attempt that waited in its lane past its window is given back unsent and
    // claimed again, on a loaded machine: it leaves no attempt behind, as checked above.)
    const startedBy = await Promise.all(
      claim.mock.calls.map(async ([db], i) => ({ db, ids: ((await claim.mock.results[i].value) as DueAttempts).started.map((s) => s.deliveryId) })),
    );
    const byInstance = instances.map((instance) => new Set(startedBy.filter(({ db }) => db === (instance.db as Db)).flatMap(({ ids }) => ids)));
    expect(new Set(startedBy.flatMap(({ ids }) => ids))).toEqual(new Set(ids));
    expect(byInstance[0].size).toBeGreaterThan(0);
    expect(byInstance[1].size).toBeGreaterThan(0);
    // Batches: fewer claiming statements that started something than deliveries.
    expect(startedBy.filter(({ ids }) => ids.length > 0).length).toBeLessThan(DELIVERIES);
  }, 60_000);

  it("never starts the same row's attempt in two concurrent batch claims from different pools", async () => {
    const receiver = await receivers.start({ kind: "ok" }, "batch-claims");
    const { ids } = await pendingDeliveries(receiver, DELIVERIES);
    const started: string[] = [];
    for (let round = 0; round < 20 && started.length < DELIVERIES; round++) {
      const batches = await Promise.all(Array.from({ length: 16 }, (_, i) => startDueAttempts(instances[i % 2].db, { limit: 7, perEndpoint: 7 })));
      started.push(...batches.flatMap((batch) => batch.started.map((s) => s.deliveryId)));
    }
    expect(started).toHaveLength(DELIVERIES);
    expect(new Set(started)).toEqual(new Set(ids));
    const attempts = await database.db.select().from(webhookAttempts).where(inArray(webhookAttempts.deliveryId, ids));
    expect(attempts).toHaveLength(DELIVERIES);
    expect(attempts.every((a) => a.state === "in_flight" && a.number === 1)).toBe(true);
    expect(receiver.requests).toHaveLength(0);
  });

  it("never hands the same row to two concurrent claims from different pools", async () => {
    const receiver = await receivers.start({ kind: "ok" }, "claims");
    const { ids } = await pendingDeliveries(receiver, DELIVERIES);
    const claimed: string[] = [];
    for (let round = 0; round < 20 && claimed.length < DELIVERIES; round++) {
      const batches = await Promise.all(Array.from({ length: 16 }, (_, i) => claimDueDeliveries(instances[i % 2].db, 7)));
      claimed.push(...batches.flat());
    }
    expect(claimed).toHaveLength(DELIVERIES);
    expect(new Set(claimed).size).toBe(DELIVERIES);
    expect(new Set(claimed)).toEqual(new Set(ids));
    // Leased: nothing is left to claim, from either instance.
    expect(await claimDueDeliveries(instances[0].db, 10)).toEqual([]);
    expect(await claimDueDeliveries(instances[1].db, 10)).toEqual([]);
    expect(receiver.requests).toHaveLength(0);
  });
});
