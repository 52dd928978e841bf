import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as testsRoute from "@/app/api/v1/tests/route";
import { catalogCertificationId } from "@/db/seed";
import { EmbeddedWorker } from "@/lib/platform/pipeline/executors/worker";
import { setPlan } from "@/lib/platform/workspaces";
import { createTestDatabase, onPostgres, type TestDatabase } from "../../helpers/db";
import { startFakeResend, type FakeResend } from "../../helpers/fake-resend";
import { createTrainer } from "../../helpers/fixtures";
import { call } from "../../helpers/http";
import { sleep, waitUntil } from "../../helpers/delivery";
import { stepRegistry } from "@/lib/registry/steps";

/**
 * The scenario: 3 tests of 1,000 recipients each (3,000 invitations) through the real
 * `POST /api/v1/tests`, against a Resend that allows 2 requests/s per key (429 + Retry-After
 * past that; another app on the same key makes sure the app meets some) and goes down for 20
 * seconds (500s) once 600 invitations are through. Two embedded workers (two instances) share
 * the pace. Every invitation must be accepted exactly once, none dropped. The time is reported,
 * not asserted (bench/README.md has the figures).
 *
 * PostgreSQL only (`npm run test:pg`): the scenario is two instances, and on PostgreSQL the two
 * workers are two connection pools claiming with SKIP LOCKED and sharing the pace row, as
 * deployed instances do. On PGlite both would share the one in-process connection, a set-up no
 * deployment has (PGlite serves one process), and the run costs ~40 s of real time while adding
 * nothing: PGlite's pacing, 429s, 5xx retries, timeouts and exactly-once sending run in
 * email-provider.test.ts and email.test.ts on both databases.
 */

let database: TestDatabase;
let fake: FakeResend;
const workers: EmbeddedWorker[] = [];

const TESTS = 3;
const RECIPIENTS = 1_000;
const OUTAGE_MS = 20_000;

beforeAll(async () => {
  fake = await startFakeResend({ ratePerSecond: 2 });
  vi.stubEnv("RESEND_API_KEY", "re_load");
  vi.stubEnv("RESEND_BASE_URL", fake.url);
  vi.stubEnv("API_LOG", "off");
  vi.stubEnv("EMAIL_RATE_PER_SECOND", "2");
  // Short backoffs for the test (production: 5 s → 5 min); the pace and the outage are the issue's.
  vi.stubEnv("EMAIL_RETRY_BASE_MS", "500");
  vi.stubEnv("EMAIL_RETRY_MAX_MS", "4000");
  vi.stubEnv("RESEND_TIMEOUT_MS", "5000");
  vi.stubEnv("WORKER_LEASE_MS", "15000");
  database = await createTestDatabase();
}, 60_000);

afterAll(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.stop()));
  await fake?.close();
  await database?.drop();
  vi.unstubAllEnvs();
});

/** Calls made by the app (they carry an idempotency key; the neighbour's do not). */
const appCalls = () => fake.calls.filter((c) => c.headers["idempotency-key"]);

describe.runIf(onPostgres)(`${TESTS * RECIPIENTS} invitations under Resend's 2 requests/s, 429s and a 20-second outage (PostgreSQL only: two instances)`, () => {
  it("accepts every invitation exactly once, drops none", async () => {
    const trainer = await createTrainer(database.db);
    await setPlan(database.db, trainer.workspaceId, "pro");
    const certificationId = (await catalogCertificationId(database.db, "aws-clf-c02"))!;
    const domains = (await database.query<{ id: number }>("select id from domains where certification_id = $1 order by position", [certificationId])).map(
      (row) => row.id,
    );
    for (let i = 0; i < 2; i++) {
      const worker = new EmbeddedWorker(database, { steps: stepRegistry, concurrency: 4, pollMs: 100 });
      workers.push(worker);
      await worker.start();
    }
    const started = Date.now();

    // Another app on the same key, sending while ours does, until ours has met a 429.
    const neighbour = (async () => {
      await waitUntil("the app's first accepted batch", async () => appCalls().some((c) => c.status === 200), 60_000, 20);
      for (let i = 0; i < 60 && !appCalls().some((c) => c.status === 429); i++) {
        const response = await fetch(`${fake.url}/emails`, {
          method: "POST",
          headers: { authorization: "Bearer re_load", "content-type": "application/json" },
          body: JSON.stringify({ from: "Other <other@example.test>", to: `neighbour${i}@example.test`, subject: "hi", text: "hi" }),
        });
        await response.text();
        await sleep(150); // the neighbour's own pace, about 6 calls a second: not a wait for anything
      }
    })();
    // The outage starts once 600 invitations are through, while the rest are queued or in flight.
    const outage = (async () => {
      await waitUntil("600 invitations accepted", async () => fake.sent.filter((m) => m.idempotencyKey).length >= 600, 120_000, 20);
      fake.outage(OUTAGE_MS);
      return Date.now();
    })();

    const addresses: string[] = [];
    for (let t = 1; t <= TESTS; t++) {
      const recipients = Array.from({ length: RECIPIENTS }, (_, i) => ({ email: `load-t${t}-r${i + 1}@example.test`, name: `Recipient ${t}.${i + 1}` }));
      addresses.push(...recipients.map((r) => r.email));
      const created = await call(testsRoute.POST, "/api/v1/tests", {
        method: "POST",
        key: trainer.secret,
        body: { certification_id: certificationId, domains, questions: 20, recipients },
      });
      expect(created.status, JSON.stringify(created.body).slice(0, 300)).toBe(201);
      expect(created.body.recipients).toHaveLength(RECIPIENTS);
    }
    const createdAt = Date.now();

    const settled = await waitUntil(
      "every invitation sent, failed or dropped",
      async () => {
        const [counts] = await database.query<{ queued: number; sent: number; failed: number; dropped: number }>(
          `select count(*) filter (where status = 'queued')::int as queued, count(*) filter (where status = 'sent')::int as sent,
                  count(*) filter (where status = 'failed')::int as failed, count(*) filter (where status = 'dropped')::int as dropped
           from email_messages where kind = 'test_invitation'`,
        );
        return counts.queued === 0 && counts.sent + counts.failed + counts.dropped === TESTS * RECIPIENTS ? counts : undefined;
      },
      240_000,
      100,
    );
    const finished = Date.now();
    await neighbour;
    const outageAt = await outage;

    expect(settled).toEqual({ queued: 0, sent: TESTS * RECIPIENTS, failed: 0, dropped: 0 });
    // Exactly once per recipient, as the provider counted it.
    const counts = addresses.map((address) => fake.acceptedFor(address));
    expect(counts.filter((n) => n !== 1)).toEqual([]);
    // Every row keeps the id of its one acceptance.
    const rows = await database.query<{ to: string; provider_id: string; attempts: number }>(
      "select \"to\", provider_id, attempts from email_messages where kind = 'test_invitation'",
    );
    const idOf = new Map(fake.sent.filter((m) => m.idempotencyKey).map((m) => [m.to, m.id]));
    expect(rows.filter((row) => row.provider_id !== idOf.get(row.to))).toEqual([]);

    // The scenario happened: 429s met and honoured, 500s met and retried, batches of at most 100.
    const calls = appCalls();
    const byStatus = (status: number) => calls.filter((c) => c.status === status).length;
    expect(byStatus(429)).toBeGreaterThan(0);
    expect(byStatus(500)).toBeGreaterThan(0);
    expect(calls.every((c) => c.status === 200 || c.status === 429 || c.status === 500 || c.status === 409)).toBe(true);
    expect(calls.every((c) => (Array.isArray(c.body) ? c.body.length : 1) <= 100)).toBe(true);
    expect(rows.some((row) => row.attempts > 1)).toBe(true);

    const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    console.log(
      `${TESTS * RECIPIENTS} invitations on ${onPostgres ? "PostgreSQL" : "PGlite"}: all accepted once in ${seconds(finished - started)} ` +
        `(tests created in ${seconds(createdAt - started)}; outage of ${seconds(OUTAGE_MS)} from ${seconds(outageAt - started)}); ` +
        `${calls.length} app calls: ${byStatus(200)} × 200, ${byStatus(429)} × 429, ${byStatus(500)} × 500, ${byStatus(409)} × 409; ` +
        `the limit alone allows ${seconds((Math.ceil((TESTS * RECIPIENTS) / 100) / 2) * 1000)} of calls`,
    );
  }, 300_000);
});
