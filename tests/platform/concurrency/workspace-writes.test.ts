import { and, eq, isNull, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { catalogCertificationId } from "@/db/seed";
import { apiKeys, classes, classInvitations, domains, emailMessages, events, recipients, tests, webhookEndpoints } from "@/db/schema";
import { newId } from "@/lib/kernel/ids";
import { createApiKey } from "@/lib/platform/keys";
import { createApiKeyInput } from "@/lib/platform/keys/schemas";
import { setPlan } from "@/lib/platform/workspaces";
import { lockWorkspace } from "@/lib/platform/workspaces/lock";
import { createTestDatabase, onPostgres, type TestDatabase } from "../../helpers/db";
import { createTrainer, type Trainer } from "../../helpers/fixtures";
import { call, type CallResult } from "../../helpers/http";
import { signInAs } from "../../helpers/session";

/*
 * Concurrent writes to one workspace, through the real route handlers with real keys.
 * Every write path takes the workspace row lock first (lib/platform/workspaces/lock.ts), so these
 * never deadlock; before that, 20 test creations at once answered 1 × 201 and 19 × 500
 * on PostgreSQL. On PGlite (one connection) the requests run one at a time: the same
 * assertions still check that every call succeeds and the plan limits stay exact.
 *
 * Rate limits: 120 requests and 30 creations per 60 s per key. Each scenario uses its own
 * trainer (and so its own keys) and stays under both, so a 429 here would be a failure.
 */

// The dashboard's routes, and /api/v1 called without a key, read the session: the trainer signed in with signInAs.
vi.mock("@/lib/platform/auth/session", () => import("../../helpers/session"));

const testsRoute = await import("@/app/api/v1/tests/route");
const recipientsRoute = await import("@/app/api/v1/tests/[code]/recipients/route");
const classesRoute = await import("@/app/api/v1/classes/route");
const invitationsRoute = await import("@/app/api/v1/classes/[id]/invitations/route");
const webhooksRoute = await import("@/app/api/v1/webhooks/route");
const dashboardKeysRoute = await import("@/app/api/app/keys/route");

let database: TestDatabase;
let certificationId: number;
let domainId: number;
let serial = 0;
const sameOrigin = { origin: "http://localhost", "x-forwarded-host": "localhost" };

beforeAll(async () => {
  database = await createTestDatabase();
  certificationId = (await catalogCertificationId(database.db, "comptia-security-plus-sy0-701"))!;
  [{ id: domainId }] = await database.db.select({ id: domains.id }).from(domains).where(eq(domains.certificationId, certificationId)).orderBy(domains.position).limit(1);
});
afterAll(() => database.drop());

const email = (label: string) => `${label}-${++serial}@example.test`;

/** A trainer with `keys` active keys (the first from createTrainer) on `plan`. */
async function trainerWith(options: { keys?: number; plan?: "free" | "pro" } = {}): Promise<{ trainer: Trainer; keys: string[] }> {
  const trainer = await createTrainer(database.db);
  if (options.plan) await setPlan(database.db, trainer.workspaceId, options.plan);
  const keys = [trainer.secret];
  for (let i = 1; i < (options.keys ?? 1); i++) keys.push((await createApiKey(database.db, trainer.workspaceId, createApiKeyInput.parse({ name: `key ${i + 1}` }))).secret);
  return { trainer, keys };
}

/** Round-robin over the keys: request i uses keys[i % keys.length]. */
const keyFor = (keys: string[], index: number) => keys[index % keys.length];

/** How many responses had each status, e.g. { 201: 18, 409: 2 }; bodies of anything else are shown on failure. */
function tally(results: CallResult[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const result of results) counts[result.status] = (counts[result.status] ?? 0) + 1;
  const unexpected = results.filter((result) => result.status !== 201 && result.status !== 409);
  expect(unexpected.map((result) => ({ status: result.status, body: result.body }))).toEqual([]);
  return counts;
}

const createTestBody = (people = 1, sendEmail = true) => ({
  certification_id: certificationId,
  domains: [domainId],
  questions: 2,
  recipients: Array.from({ length: people }, () => ({ email: email("r") })),
  send_email: sendEmail,
});

const postTest = (key: string, body = createTestBody()) => call(testsRoute.POST, "/api/v1/tests", { method: "POST", key, body });
const postRecipient = (key: string, code: string, address = email("added")) =>
  call(recipientsRoute.POST, `/api/v1/tests/${code}/recipients`, { method: "POST", key, params: { code }, body: { recipients: [{ email: address }] } });
const postClass = (key: string, emails: string[]) =>
  call(classesRoute.POST, "/api/v1/classes", { method: "POST", key, body: { name: `Class ${++serial}`, certification_id: certificationId, emails } });
const postInvitation = (key: string, classId: number, address = email("student")) =>
  call(invitationsRoute.POST, `/api/v1/classes/${classId}/invitations`, { method: "POST", key, params: { id: String(classId) }, body: { emails: [address] } });
const postWebhook = (key: string) =>
  call(webhooksRoute.POST, "/api/v1/webhooks", { method: "POST", key, body: { url: `http://127.0.0.1:9/hook/${++serial}`, events: [] } });

async function countWhere(table: typeof tests | typeof classes | typeof classInvitations | typeof emailMessages | typeof webhookEndpoints, workspaceId: string) {
  const [{ n }] = await database.db.select({ n: sql<number>`count(*)::int` }).from(table).where(eq(table.workspaceId, workspaceId));
  return n;
}
async function recipientCount(code: string) {
  const [{ n }] = await database.db
    .select({ n: sql<number>`count(*)::int` })
    .from(recipients)
    .innerJoin(tests, eq(tests.id, recipients.testId))
    .where(eq(tests.code, code));
  return n;
}
async function activeKeys(workspaceId: string) {
  const [{ n }] = await database.db.select({ n: sql<number>`count(*)::int` }).from(apiKeys).where(and(eq(apiKeys.workspaceId, workspaceId), isNull(apiKeys.revokedAt)));
  return n;
}

describe.each([
  { label: "one key", keyCount: 1 },
  { label: "two keys", keyCount: 2 },
])("20 concurrent creations of each kind in one workspace, $label", ({ keyCount }) => {
  it("tests: all 201, each recipient e-mailed exactly once", async () => {
    const { trainer, keys } = await trainerWith({ keys: keyCount });
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => postTest(keyFor(keys, i))));
    expect(tally(results)).toEqual({ 201: 20 });
    expect(new Set(results.map((result) => result.body.code)).size).toBe(20);
    expect(await countWhere(tests, trainer.workspaceId)).toBe(20);
    expect(await countWhere(emailMessages, trainer.workspaceId)).toBe(20);
  });

  it("added recipients on one test: all 201, the row count exact", async () => {
    const { trainer, keys } = await trainerWith({ keys: keyCount, plan: "pro" });
    const created = await postTest(keys[0]);
    expect(created.status).toBe(201);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => postRecipient(keyFor(keys, i), created.body.code)));
    expect(tally(results)).toEqual({ 201: 20 });
    expect(await recipientCount(created.body.code)).toBe(21);
    expect(await countWhere(emailMessages, trainer.workspaceId)).toBe(21);
  });

  it("classes (each inviting a student): all 201", async () => {
    const { trainer, keys } = await trainerWith({ keys: keyCount, plan: "pro" });
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => postClass(keyFor(keys, i), [email("student")])));
    expect(tally(results)).toEqual({ 201: 20 });
    expect(await countWhere(classes, trainer.workspaceId)).toBe(20);
    expect(await countWhere(classInvitations, trainer.workspaceId)).toBe(20);
    expect(await countWhere(emailMessages, trainer.workspaceId)).toBe(20);
  });

  it("class invitations to one class: all 201", async () => {
    const { trainer, keys } = await trainerWith({ keys: keyCount, plan: "pro" });
    const klass = await postClass(keys[0], []);
    expect(klass.status).toBe(201);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => postInvitation(keyFor(keys, i), klass.body.id)));
    expect(tally(results)).toEqual({ 201: 20 });
    expect(await countWhere(classInvitations, trainer.workspaceId)).toBe(20);
    expect(await countWhere(emailMessages, trainer.workspaceId)).toBe(20);
  });

  it("webhook endpoints: all 201 up to the limit of 20", async () => {
    const { trainer, keys } = await trainerWith({ keys: keyCount });
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => postWebhook(keyFor(keys, i))));
    expect(tally(results)).toEqual({ 201: 20 });
    expect(await countWhere(webhookEndpoints, trainer.workspaceId)).toBe(20);
  });

  it("10 test creations and 10 added-recipient calls at once: all 201", async () => {
    const { trainer, keys } = await trainerWith({ keys: keyCount, plan: "pro" });
    const base = await postTest(keys[0]);
    expect(base.status).toBe(201);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? postTest(keyFor(keys, i / 2)) : postRecipient(keyFor(keys, (i - 1) / 2), base.body.code))),
    );
    expect(tally(results)).toEqual({ 201: 20 });
    expect(await countWhere(tests, trainer.workspaceId)).toBe(11);
    expect(await recipientCount(base.body.code)).toBe(11);
    expect(await countWhere(emailMessages, trainer.workspaceId)).toBe(21);
  });
});

describe("plan limits stay exact under concurrent load", () => {
  it("free plan, 5 seats per test: 20 concurrent one-recipient additions → exactly 4 succeed, 16 × 409", async () => {
    const { trainer, keys } = await trainerWith({ keys: 2 });
    const created = await postTest(keys[0]);
    expect(created.status).toBe(201);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => postRecipient(keyFor(keys, i), created.body.code)));
    expect(tally(results)).toEqual({ 201: 4, 409: 16 });
    for (const refused of results.filter((result) => result.status === 409)) expect(refused.body.error.code).toBe("plan_limit_exceeded");
    expect(await recipientCount(created.body.code)).toBe(5);
    expect(await countWhere(emailMessages, trainer.workspaceId)).toBe(5);
  });

  it("free plan, 1 class: 20 concurrent creations → exactly 1 succeeds", async () => {
    const { trainer, keys } = await trainerWith({ keys: 2 });
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => postClass(keyFor(keys, i), [])));
    expect(tally(results)).toEqual({ 201: 1, 409: 19 });
    for (const refused of results.filter((result) => result.status === 409)) expect(refused.body.error.code).toBe("plan_limit_exceeded");
    expect(await countWhere(classes, trainer.workspaceId)).toBe(1);
  });

  it("free plan, 2 students: 20 concurrent one-student invitations → exactly 2 succeed", async () => {
    const { trainer, keys } = await trainerWith({ keys: 2 });
    const klass = await postClass(keys[0], []);
    expect(klass.status).toBe(201);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => postInvitation(keyFor(keys, i), klass.body.id)));
    expect(tally(results)).toEqual({ 201: 2, 409: 18 });
    expect(await countWhere(classInvitations, trainer.workspaceId)).toBe(2);
    expect(await countWhere(emailMessages, trainer.workspaceId)).toBe(2);
  });

  it("at most 5 active API keys: 20 concurrent dashboard creations beside one key → exactly 4 succeed", async () => {
    const { trainer } = await trainerWith();
    signInAs(trainer);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call(dashboardKeysRoute.POST, "/api/app/keys", { method: "POST", headers: sameOrigin, body: { name: `concurrent ${i}` } }),
      ),
    );
    expect(tally(results)).toEqual({ 201: 4, 409: 16 });
    for (const refused of results.filter((result) => result.status === 409)) expect(refused.body.error.code).toBe("plan_limit_exceeded");
    expect(await activeKeys(trainer.workspaceId)).toBe(5);
  });

  it("webhook endpoints, limit 20: 25 concurrent registrations over two keys → exactly 20 succeed", async () => {
    const { trainer, keys } = await trainerWith({ keys: 2 });
    const results = await Promise.all(Array.from({ length: 25 }, (_, i) => postWebhook(keyFor(keys, i))));
    expect(tally(results)).toEqual({ 201: 20, 409: 5 });
    expect(await countWhere(webhookEndpoints, trainer.workspaceId)).toBe(20);
  });
});

describe("every kind of workspace write at once", () => {
  it("tests, recipients, classes, invitations, keys and webhooks together over two keys and the dashboard: no 5xx, limits exact", async () => {
    const { trainer, keys } = await trainerWith({ keys: 2, plan: "pro" });
    signInAs(trainer);
    const base = await postTest(keys[0]);
    const klass = await postClass(keys[1], []);
    expect([base.status, klass.status]).toEqual([201, 201]);
    const calls: Promise<CallResult>[] = [];
    for (let i = 0; i < 5; i++) {
      calls.push(postTest(keyFor(keys, i)));
      calls.push(postRecipient(keyFor(keys, i + 1), base.body.code));
      calls.push(postClass(keyFor(keys, i), [email("student")]));
      calls.push(postInvitation(keyFor(keys, i + 1), klass.body.id));
      calls.push(postWebhook(keyFor(keys, i)));
      calls.push(call(dashboardKeysRoute.POST, "/api/app/keys", { method: "POST", headers: sameOrigin, body: { name: `mixed ${i}` } }));
      calls.push(call(testsRoute.POST, "/api/v1/tests", { method: "POST", headers: sameOrigin, body: createTestBody() }));
      calls.push(
        call(recipientsRoute.POST, `/api/v1/tests/${base.body.code}/recipients`, {
          method: "POST",
          headers: sameOrigin,
          params: { code: base.body.code },
          body: { recipients: [{ email: email("dash") }] },
        }),
      );
    }
    const results = await Promise.all(calls);
    // Only the key creations can be refused: 2 keys exist, so 3 of the 5 fit.
    expect(tally(results)).toEqual({ 201: 38, 409: 2 });
    expect(await activeKeys(trainer.workspaceId)).toBe(5);
    expect(await countWhere(tests, trainer.workspaceId)).toBe(11);
    expect(await recipientCount(base.body.code)).toBe(11);
    expect(await countWhere(classes, trainer.workspaceId)).toBe(6);
    expect(await countWhere(classInvitations, trainer.workspaceId)).toBe(10);
    expect(await countWhere(webhookEndpoints, trainer.workspaceId)).toBe(5);
  });
});

// PGlite is one connection: a transaction held open by the test would stop every other
// query, so these two cannot be shown there (and there is no concurrency to order).
describe.skipIf(!onPostgres)("the workspace lock itself (PostgreSQL only: needs two connections)", () => {
  it("creations wait for a writer holding the lock and then all succeed; inserts elsewhere under the workspace are not held up", async () => {
    const { trainer, keys } = await trainerWith({ keys: 2 });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const lockHeld = new Promise<void>((resolve) => (locked = resolve));
    const holder = database.db.transaction(async (tx) => {
      await lockWorkspace(tx, trainer.workspaceId);
      locked();
      await released;
    });
    await lockHeld;

    const creations = Promise.all(Array.from({ length: 5 }, (_, i) => postTest(keyFor(keys, i))));
    // Wait (by observing, not sleeping) until all five transactions queue on the row lock.
    for (;;) {
      const [{ waiting }] = await database.query<{ waiting: number }>(
        "select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
      );
      if (waiting >= 5) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await countWhere(tests, trainer.workspaceId)).toBe(0);

    // FOR NO KEY UPDATE does not conflict with the FOR KEY SHARE a foreign-key insert takes:
    // an event recorded under the workspace goes through while the writer holds the lock.
    // (Under FOR UPDATE it would wait, and lock_timeout would fail it with 55P03.)
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`set local lock_timeout = '5s'`);
      await tx.insert(events).values({ id: newId("evt"), workspaceId: trainer.workspaceId, type: "ctf.deployed", data: {} });
    });

    release();
    await holder;
    expect(tally(await creations)).toEqual({ 201: 5 });
    expect(await countWhere(tests, trainer.workspaceId)).toBe(5);
  });
});
