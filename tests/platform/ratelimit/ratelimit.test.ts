import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiKeys } from "@/db/schema";
import { hashApiKey } from "@/lib/platform/keys/secret";
import { postgresLimiter, RATE_LIMIT } from "@/lib/platform/ratelimit";
import * as certificationsRoute from "@/app/api/v1/certifications/route";
import { createTestDatabase, onPostgres, type TestDatabase } from "../../helpers/db";
import { createTrainer } from "../../helpers/fixtures";
import { call } from "../../helpers/http";
import { openDatabase } from "@/lib/platform/database";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

/** Rewrites a key's request log to timestamps `agesMs` before the database's now. */
async function setLog(keyId: string, column: "request_log" | "create_log", agesMs: number[]) {
  const stamps = sql.join(
    agesMs.map((age) => sql`now() - ${age} * interval '1 millisecond'`),
    sql`, `,
  );
  await database.db.execute(sql`update api_keys set ${sql.identifier(column)} = array[${stamps}]::timestamptz[] where id = ${keyId}`);
}

describe("sliding-log rate limit through the API", () => {
  it("lets 120 requests through per 60 s, then answers 429 without counting the rejected ones", async () => {
    const trainer = await createTrainer(database.db);
    const remaining: number[] = [];
    for (let i = 0; i < RATE_LIMIT.requests; i++) {
      const result = await call(certificationsRoute.GET, "/api/v1/certifications", { key: trainer.secret, query: { per_page: 1 } });
      expect(result.status).toBe(200);
      remaining.push(Number(result.headers.get("x-ratelimit-remaining")));
    }
    expect(remaining).toEqual(Array.from({ length: 120 }, (_, i) => 119 - i));

    const rejected = await call(certificationsRoute.GET, "/api/v1/certifications", { key: trainer.secret });
    expect(rejected.status).toBe(429);
    expect(rejected.headers.get("x-ratelimit-limit")).toBe("120");
    expect(rejected.headers.get("x-ratelimit-remaining")).toBe("0");
    const retryAfter = Number(rejected.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(rejected.body.error).toMatchObject({ code: "rate_limit_exceeded", retry_after: retryAfter });
    expect(rejected.body.error.request_id).toBe(rejected.headers.get("x-request-id"));
    const reset = Number(rejected.headers.get("x-ratelimit-reset"));
    const nowSeconds = Date.now() / 1000;
    expect(reset).toBeGreaterThan(nowSeconds);
    expect(reset).toBeLessThanOrEqual(Math.ceil(nowSeconds) + 61);

    const [row] = await database.db.select().from(apiKeys).where(eq(apiKeys.id, trainer.key.id));
    expect(row.requestLog).toHaveLength(120);
  });

  it("counts per key: another key of the same workspace has its own bucket", async () => {
    const trainer = await createTrainer(database.db);
    await setLog(trainer.key.id, "request_log", Array(120).fill(1_000));
    const second = await createTrainer(database.db, { email: trainer.email });
    expect((await call(certificationsRoute.GET, "/api/v1/certifications", { key: trainer.secret })).status).toBe(429);
    expect((await call(certificationsRoute.GET, "/api/v1/certifications", { key: second.secret })).status).toBe(200);
  });
});

describe("the window slides", () => {
  it("forgets requests older than 60 s", async () => {
    const trainer = await createTrainer(database.db);
    await setLog(trainer.key.id, "request_log", Array(120).fill(60_500));
    const admission = await postgresLimiter(database).admit(hashApiKey(trainer.secret), { creation: false });
    expect(admission?.allowed).toBe(true);
    expect(admission?.rate.remaining).toBe(119);
  });

  it("refuses while 120 requests are inside the window, and says when the oldest leaves", async () => {
    const trainer = await createTrainer(database.db);
    await setLog(trainer.key.id, "request_log", [...Array(60).fill(58_000), ...Array(60).fill(30_000)]);
    const admission = await postgresLimiter(database).admit(hashApiKey(trainer.secret), { creation: false });
    expect(admission?.allowed).toBe(false);
    expect(admission?.limitedBy).toBe("requests");
    expect(admission?.retryAfter).toBe(2);
    const expectedReset = (Date.now() - 58_000 + 60_000) / 1000;
    expect(Math.abs(admission!.rate.reset - expectedReset)).toBeLessThanOrEqual(2);
  });

  it("admits again as soon as part of the log has aged out", async () => {
    const trainer = await createTrainer(database.db);
    await setLog(trainer.key.id, "request_log", [...Array(10).fill(61_000), ...Array(110).fill(10_000)]);
    const limiter = postgresLimiter(database);
    const hash = hashApiKey(trainer.secret);
    const results = [];
    for (let i = 0; i < 11; i++) results.push(await limiter.admit(hash, { creation: false }));
    expect(results.map((r) => r?.allowed)).toEqual([...Array(10).fill(true), false]);
  });
});

describe("the creations log", () => {
  it("allows 30 creations per 60 s on top of the request limit", async () => {
    const trainer = await createTrainer(database.db);
    const limiter = postgresLimiter(database);
    const hash = hashApiKey(trainer.secret);
    for (let i = 0; i < RATE_LIMIT.creations; i++) {
      expect((await limiter.admit(hash, { creation: true }))?.allowed).toBe(true);
    }
    const refused = await limiter.admit(hash, { creation: true });
    expect(refused).toMatchObject({ allowed: false, limitedBy: "creations" });
    // Other requests still pass, and the refused creation was not counted in either log.
    const read = await limiter.admit(hash, { creation: false });
    expect(read).toMatchObject({ allowed: true });
    expect(read?.rate.remaining).toBe(RATE_LIMIT.requests - RATE_LIMIT.creations - 1);
  });

  it("returns nothing for an unknown or revoked key", async () => {
    const trainer = await createTrainer(database.db);
    const limiter = postgresLimiter(database);
    expect(await limiter.admit(hashApiKey("ck_unknown"), { creation: false })).toBeNull();
    await database.db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, trainer.key.id));
    expect(await limiter.admit(hashApiKey(trainer.secret), { creation: false })).toBeNull();
  });
});

describe.runIf(onPostgres)("exactness under concurrency on PostgreSQL", () => {
  it("admits exactly 120 of 300 simultaneous requests arriving through two instances", async () => {
    const trainer = await createTrainer(database.db);
    const url = (database.db as unknown as { $client: { options: { host: string[]; port: number[]; database: string } } }).$client.options;
    const target = `postgres://postgres@${url.host[0]}:${url.port[0]}/${url.database}`;
    // Two independent pools stand for two app instances.
    const instances = [await openDatabase({ url: target, poolMax: 10 }), await openDatabase({ url: target, poolMax: 10 })];
    try {
      const limiters = instances.map(postgresLimiter);
      const hash = hashApiKey(trainer.secret);
      const results = await Promise.all(
        Array.from({ length: 300 }, (_, i) => limiters[i % 2].admit(hash, { creation: false })),
      );
      const allowed = results.filter((r) => r?.allowed);
      expect(allowed).toHaveLength(120);
      expect(new Set(allowed.map((r) => r!.rate.remaining))).toEqual(new Set(Array.from({ length: 120 }, (_, i) => i)));
      const refused = results.filter((r) => !r?.allowed);
      expect(refused).toHaveLength(180);
      for (const r of refused) expect(r!.retryAfter).toBeGreaterThanOrEqual(1);
      const [row] = await database.db.select().from(apiKeys).where(eq(apiKeys.id, trainer.key.id));
      expect(row.requestLog).toHaveLength(120);
    } finally {
      await Promise.all(instances.map((instance) => instance.close()));
    }
  });
});
