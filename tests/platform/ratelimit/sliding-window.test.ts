import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rateLimitBuckets } from "@/db/schema";
import { postgresWindowLimiter, type WindowRule } from "@/lib/platform/ratelimit/window";
import { createTestDatabase, onPostgres, type TestDatabase } from "../../helpers/db";
import type { Database } from "@/db/types";
import { openDatabase } from "@/lib/platform/database";

// The generic sliding-log limiter (`rate_limit_hit`) that the public-mail and dashboard
// limits are built on. Windows are moved by ageing the stored hits, never by waiting.

let database: TestDatabase;
let counter = 0;
const fresh = (label: string) => `test:${label}:${++counter}:${Date.now()}`;
const HOUR = 3_600_000;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

async function hitsOf(key: string): Promise<number> {
  const [row] = await database.db.select({ hits: rateLimitBuckets.hits }).from(rateLimitBuckets).where(eq(rateLimitBuckets.key, key));
  return row?.hits.length ?? 0;
}

/** Moves every hit of a bucket `ms` into the past (as if that much time had gone by). */
async function age(key: string, ms: number): Promise<void> {
  await database.db.execute(sql`
    update rate_limit_buckets
       set hits = array(select h - ${ms} * interval '1 millisecond' from unnest(hits) as h order by h),
           expires_at = expires_at - ${ms} * interval '1 millisecond'
     where key = ${key}`);
}

describe("rate_limit_hit: one bucket", () => {
  it("admits `limit` hits per window, refuses the next with the wait, and counts no refused hit", async () => {
    const limiter = postgresWindowLimiter(database.db);
    const rule: WindowRule = { key: fresh("one"), limit: 3, windowMs: HOUR };
    const remaining: number[] = [];
    for (let i = 0; i < 3; i++) {
      const decision = await limiter.hit([rule]);
      expect(decision.allowed).toBe(true);
      expect(decision.retryAfter).toBe(0);
      remaining.push(decision.buckets[0].remaining);
    }
    expect(remaining).toEqual([2, 1, 0]);
    for (let i = 0; i < 5; i++) {
      const refused = await limiter.hit([rule]);
      expect(refused.allowed).toBe(false);
      expect(refused.buckets[0]).toMatchObject({ hasRoom: false, remaining: 0 });
      // The oldest hit leaves the window in (almost) an hour.
      expect(refused.retryAfter).toBeGreaterThan(3_500);
      expect(refused.retryAfter).toBeLessThanOrEqual(3_600);
    }
    expect(await hitsOf(rule.key)).toBe(3);
  });

  it("slides: a hit older than the window no longer counts", async () => {
    const limiter = postgresWindowLimiter(database.db);
    const rule: WindowRule = { key: fresh("slide"), limit: 2, windowMs: HOUR };
    await limiter.hit([rule]);
    await age(rule.key, 40 * 60_000);
    await limiter.hit([rule]);
    expect((await limiter.hit([rule])).allowed).toBe(false);
    // 21 more minutes: the first hit is 61 minutes old, the second 21.
    await age(rule.key, 21 * 60_000);
    const again = await limiter.hit([rule]);
    expect(again.allowed).toBe(true);
    expect(again.buckets[0].remaining).toBe(0);
    expect(await hitsOf(rule.key)).toBe(2);
  });

  it("reports when the oldest counted hit leaves the window (X-RateLimit-Reset)", async () => {
    const limiter = postgresWindowLimiter(database.db);
    const rule: WindowRule = { key: fresh("reset"), limit: 5, windowMs: 60_000 };
    const before = Math.floor(Date.now() / 1000);
    const first = await limiter.hit([rule]);
    await age(rule.key, 10_000);
    const second = await limiter.hit([rule]);
    expect(first.buckets[0].reset).toBeGreaterThanOrEqual(before + 60);
    // The reset follows the oldest hit, now 10 s older.
    expect(first.buckets[0].reset - second.buckets[0].reset).toBeGreaterThanOrEqual(9);
    expect(first.buckets[0].reset - second.buckets[0].reset).toBeLessThanOrEqual(11);
  });
});

describe("rate_limit_hit: several buckets, all or nothing", () => {
  it("refuses when any bucket is full and then counts the hit in none", async () => {
    const limiter = postgresWindowLimiter(database.db);
    const small: WindowRule = { key: fresh("small"), limit: 1, windowMs: HOUR };
    const large: WindowRule = { key: fresh("large"), limit: 10, windowMs: HOUR };
    expect((await limiter.hit([small, large])).allowed).toBe(true);
    const refused = await limiter.hit([small, large]);
    expect(refused.allowed).toBe(false);
    expect(refused.buckets.map((bucket) => [bucket.key, bucket.hasRoom])).toEqual([
      [small.key, false],
      [large.key, true],
    ]);
    expect(await hitsOf(small.key)).toBe(1);
    expect(await hitsOf(large.key)).toBe(1);
    // The large bucket alone still has room.
    expect((await limiter.hit([large])).allowed).toBe(true);
    expect(await hitsOf(large.key)).toBe(2);
  });

  it("refuses the same bucket twice in one hit", async () => {
    const rule: WindowRule = { key: fresh("twice"), limit: 5, windowMs: HOUR };
    await expect(postgresWindowLimiter(database.db).hit([rule, rule])).rejects.toThrow(/same bucket twice/);
  });

  it("counts nothing when the transaction it ran in rolls back", async () => {
    const rule: WindowRule = { key: fresh("rollback"), limit: 5, windowMs: HOUR };
    await database.db
      .transaction(async (tx) => {
        expect((await postgresWindowLimiter(tx).hit([rule])).allowed).toBe(true);
        throw new Error("the guarded work failed");
      })
      .catch(() => {});
    expect(await hitsOf(rule.key)).toBe(0);
  });
});

describe("rate_limit_hit: housekeeping", () => {
  it("deletes buckets whose hits have all left their window", async () => {
    const limiter = postgresWindowLimiter(database.db);
    const stale = { key: fresh("stale"), limit: 3, windowMs: 60_000 };
    await limiter.hit([stale]);
    await age(stale.key, 61_000);
    await limiter.hit([{ key: fresh("other"), limit: 3, windowMs: 60_000 }]);
    const [row] = await database.db.select().from(rateLimitBuckets).where(eq(rateLimitBuckets.key, stale.key));
    expect(row).toBeUndefined();
  });
});

describe.runIf(onPostgres)("rate_limit_hit on PostgreSQL: exact across instances", () => {
  let instances: Database[] = [];

  beforeAll(async () => {
    // Two more connection pools on the same database: two app instances.
    const [{ name }] = await database.query<{ name: string }>("select current_database() as name");
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = `/${name}`;
    instances = await Promise.all([openDatabase({ url: url.toString(), poolMax: 10 }), openDatabase({ url: url.toString(), poolMax: 10 })]);
  });
  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.close()));
  });

  it("admits exactly `limit` of 80 simultaneous hits from two instances", async () => {
    const rule: WindowRule = { key: fresh("race"), limit: 30, windowMs: HOUR };
    const decisions = await Promise.all(
      Array.from({ length: 80 }, (_, i) => postgresWindowLimiter(instances[i % 2].db).hit([rule])),
    );
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(30);
    expect(await hitsOf(rule.key)).toBe(30);
    // Every admitted hit saw a different count: no two read the same log.
    const remaining = decisions.filter((decision) => decision.allowed).map((decision) => decision.buckets[0].remaining);
    expect(new Set(remaining).size).toBe(30);
  });

  it("shares buckets between callers that name them in any order, without deadlock, exactly", async () => {
    const a: WindowRule = { key: fresh("a"), limit: 25, windowMs: HOUR };
    const b: WindowRule = { key: fresh("b"), limit: 1_000, windowMs: HOUR };
    const c: WindowRule = { key: fresh("c"), limit: 1_000, windowMs: HOUR };
    const sets = [
      [a, b],
      [b, a],
      [c, a],
      [a, c, b],
    ];
    const decisions = await Promise.all(
      Array.from({ length: 60 }, (_, i) => postgresWindowLimiter(instances[i % 2].db).hit(sets[i % sets.length])),
    );
    const admitted = decisions.filter((decision) => decision.allowed).length;
    expect(admitted).toBe(25);
    expect(await hitsOf(a.key)).toBe(25);
    // b and c count exactly the admitted hits that named them.
    const named = (rule: WindowRule) =>
      decisions.filter((decision, i) => decision.allowed && sets[i % sets.length].includes(rule)).length;
    expect(await hitsOf(b.key)).toBe(named(b));
    expect(await hitsOf(c.key)).toBe(named(c));
  });

  it("holds a bucket locked while the transaction that counted in it is open", async () => {
    const rule: WindowRule = { key: fresh("held"), limit: 1, windowMs: HOUR };
    let releaseFirst!: () => void;
    const firstMayCommit = new Promise<void>((resolve) => (releaseFirst = resolve));
    let firstCounted!: () => void;
    const counted = new Promise<void>((resolve) => (firstCounted = resolve));
    const first = instances[0].db.transaction(async (tx) => {
      const decision = await postgresWindowLimiter(tx).hit([rule]);
      firstCounted();
      await firstMayCommit;
      return decision.allowed;
    });
    await counted;
    // The second caller waits for the first transaction, then sees its hit.
    const second = postgresWindowLimiter(instances[1].db).hit([rule]);
    releaseFirst();
    expect(await first).toBe(true);
    expect((await second).allowed).toBe(false);
  });
});
