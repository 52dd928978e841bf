import { expect, test } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { uniqueEmail } from "./helpers";

/**
 * The limiter is exact across instances: 300 requests fired at once with one key, split
 * between two app instances on one PostgreSQL database, get exactly 120 × 200 and 180 × 429.
 * Needs DATABASE_URL (the config then starts the second instance on port 3101); PGlite is
 * one process's database, so there is no second instance to test against without it.
 */
const first = Number(process.env.E2E_PORT ?? 3100);
const INSTANCES = [`http://localhost:${first}`, `http://localhost:${first + 1}`];
const LIMIT = 120;
const TOTAL = 300;

test.skip(!process.env.DATABASE_URL, "Needs DATABASE_URL: the two-instance rate-limit test runs on PostgreSQL only (PGlite serves one process).");
test.setTimeout(60_000);

type Outcome = { status: number; headers: Headers; body: unknown; instance: string };

test("one key, two instances, 300 requests at once: exactly 120 served, 180 refused", async () => {
  // Created through the admin CLI, which opens the same database (no browser involved).
  const stdout = execFileSync("npm", ["run", "-s", "cli", "--", "key:create", "--email", uniqueEmail("rate-limit"), "--name", "rate limit e2e"], {
    env: { ...process.env, DATABASE_URL: process.env.DATABASE_URL },
    encoding: "utf8",
    timeout: 30_000,
  });
  const key = stdout.trim().split("\n").at(-1)!.trim();
  expect(key).toMatch(/^ck_[A-Za-z0-9_-]{40,}$/);

  // Both instances answer before the burst (so no start-up cost lands inside it).
  for (const base of INSTANCES) {
    const health = await fetch(`${base}/api/v1/certifications?per_page=1`);
    expect(health.status, `${base} is up and refuses a keyless request`).toBe(401);
  }

  const started = Date.now() / 1000;
  const outcomes: Outcome[] = await Promise.all(
    Array.from({ length: TOTAL }, async (_, i) => {
      const instance = INSTANCES[i % INSTANCES.length];
      const response = await fetch(`${instance}/api/v1/certifications?per_page=1`, {
        headers: { "X-API-KEY": key },
        signal: AbortSignal.timeout(45_000),
      });
      return { status: response.status, headers: response.headers, body: await response.json(), instance };
    }),
  );
  const finished = Date.now() / 1000;

  const statuses = outcomes.reduce<Record<number, number>>((acc, o) => ({ ...acc, [o.status]: (acc[o.status] ?? 0) + 1 }), {});
  expect(statuses, "status counts").toEqual({ 200: LIMIT, 429: TOTAL - LIMIT });
  // 120 served in all, though each instance got 150: with a limiter per instance up to 240
  // would pass. How the 120 split between the two is a race (a warmer instance may take them
  // all), so it is not asserted.

  const served = outcomes.filter((o) => o.status === 200);
  const refused = outcomes.filter((o) => o.status === 429);

  for (const o of refused) {
    const retryAfter = o.headers.get("retry-after");
    expect(retryAfter, "Retry-After").toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(61);
    expect(o.headers.get("x-ratelimit-limit")).toBe(String(LIMIT));
    expect(o.headers.get("x-ratelimit-remaining")).toBe("0");
    const reset = o.headers.get("x-ratelimit-reset");
    expect(reset, "X-RateLimit-Reset").toMatch(/^\d+$/);
    expect(Number(reset)).toBeGreaterThanOrEqual(Math.floor(started));
    expect(Number(reset)).toBeLessThanOrEqual(Math.ceil(finished) + 61);
    expect(o.headers.get("x-request-id")).toBeTruthy();
    expect(o.body).toEqual({
      error: {
        code: "rate_limit_exceeded",
        message: expect.stringContaining("Rate limit exceeded"),
        retry_after: Number(retryAfter),
        request_id: o.headers.get("x-request-id"),
      },
    });
  }

  // Exactness: the 120 admitted requests saw each remaining count 119, 118, …, 0 exactly once.
  const remaining = served.map((o) => o.headers.get("x-ratelimit-remaining"));
  for (const value of remaining) expect(value).toMatch(/^\d+$/);
  expect(remaining.map(Number).sort((a, b) => a - b)).toEqual(Array.from({ length: LIMIT }, (_, i) => i));
  for (const o of served) {
    expect(o.headers.get("x-ratelimit-limit")).toBe(String(LIMIT));
    const reset = Number(o.headers.get("x-ratelimit-reset"));
    expect(reset).toBeGreaterThanOrEqual(Math.floor(started));
    expect(reset).toBeLessThanOrEqual(Math.ceil(finished) + 61);
    expect((o.body as { data: unknown[] }).data).toHaveLength(1);
  }
});
