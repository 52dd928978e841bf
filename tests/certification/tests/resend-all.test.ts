import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emailMessages, recipients, tests } from "@/db/schema";
import { MAIL_ROUND } from "@/lib/certification/tests/recipients";
import { RESEND_ALL_LIMIT } from "@/lib/certification/tests/tests";
import { setPlan } from "@/lib/platform/workspaces";
import * as testsRoute from "@/app/api/v1/tests/route";
import * as testRoute from "@/app/api/v1/tests/[code]/route";
import * as resendAllRoute from "@/app/api/v1/tests/[code]/resend/route";
import { createTestDatabase, onPostgres, type TestDatabase } from "../../helpers/db";
import { catalogCertification, createTrainer, type Trainer } from "../../helpers/fixtures";
import { call } from "../../helpers/http";

/**
 * POST /api/v1/tests/{code}/resend: the single resend's e-mail to every recipient who has not
 * finished, once each, in rounds of MAIL_ROUND; at most one per test per RESEND_ALL_LIMIT window.
 */

let database: TestDatabase;
let trainer: Trainer;
let certificationId: number;
let domainIds: number[];

beforeAll(async () => {
  database = await createTestDatabase();
  trainer = await createTrainer(database.db);
  await setPlan(database.db, trainer.workspaceId, "pro");
  ({ certificationId, domainIds } = await catalogCertification(database.db));
});
afterAll(() => database.drop());

type Person = { id: number; email: string; status: string; sent_at: string | null; last_emailed_at: string | null; email_delivery: { status: string } };

async function newTest(count: number, options: { sendEmail?: boolean; key?: string; closesAt?: string } = {}) {
  const made = await call(testsRoute.POST, "/api/v1/tests", {
    method: "POST",
    key: options.key ?? trainer.secret,
    body: {
      certification_id: certificationId,
      domains: [domainIds[0]],
      questions: 1,
      send_email: options.sendEmail ?? true,
      ...(options.closesAt ? { closes_at: options.closesAt } : {}),
      recipients: Array.from({ length: count }, (_, i) => ({ email: `p${i}-${Math.random().toString(36).slice(2, 8)}@example.com`, name: `P ${i}` })),
    },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const [{ id }] = await database.db.select({ id: tests.id }).from(tests).where(eq(tests.code, made.body.code));
  const ids = (await database.db.select({ id: recipients.id }).from(recipients).where(eq(recipients.testId, id)).orderBy(recipients.id)).map((r) => r.id);
  return { code: made.body.code as string, testId: id, ids };
}

const resendAll = (code: string, body?: unknown, key = trainer.secret) =>
  call(resendAllRoute.POST, `/api/v1/tests/${code}/resend`, { method: "POST", key, params: { code }, ...(body === undefined ? {} : { body }) });

const readPeople = async (code: string): Promise<Person[]> => (await call(testRoute.GET, `/api/v1/tests/${code}`, { key: trainer.secret, params: { code } })).body.recipients;

/** Invitations queued per recipient of the test. */
async function invitations(ids: number[]): Promise<Map<number, number>> {
  const rows = await database.db
    .select({ recipientId: emailMessages.recipientId, n: sql<number>`count(*)::int` })
    .from(emailMessages)
    .where(and(inArray(emailMessages.recipientId, ids), eq(emailMessages.kind, "test_invitation")))
    .groupBy(emailMessages.recipientId);
  return new Map(rows.map((row) => [row.recipientId!, Number(row.n)]));
}

const markCompleted = (ids: number[]) =>
  database.db
    .update(recipients)
    .set({ status: "completed", startedAt: new Date(Date.now() - 60_000), completedAt: new Date(), percent: 100, result: { percent: 100, correct: 1, questions: 1, passed: null, domains: [] } })
    .where(inArray(recipients.id, ids));
const markStarted = (ids: number[]) => database.db.update(recipients).set({ status: "started", startedAt: new Date() }).where(inArray(recipients.id, ids));

/** Moves the test's window into the past, as if RESEND_ALL_LIMIT.windowMs had gone by. */
const windowPassed = (testId: number) =>
  database.db.execute(sql`update rate_limit_buckets set hits = array(select h - make_interval(secs => ${RESEND_ALL_LIMIT.windowMs / 1000 + 1}) from unnest(hits) as h) where key = ${`tests:resend-all:${testId}`}`);

describe("POST /api/v1/tests/{code}/resend", () => {
  it("e-mails every recipient who has not completed once, in rounds, and skips the completed", async () => {
    const count = MAIL_ROUND + 5;
    const { code, ids } = await newTest(count);
    const completed = [ids[0], ids[MAIL_ROUND - 1], ids[MAIL_ROUND], ids[count - 1]];
    await markCompleted(completed);
    await markStarted([ids[1]]);
    const before = await invitations(ids);
    expect([...before.values()].every((n) => n === 1)).toBe(true);

    const result = await resendAll(code);
    expect(result.status, JSON.stringify(result.body)).toBe(202);
    expect(result.body).toEqual({ queued: count - completed.length, skipped: completed.length });

    const after = await invitations(ids);
    for (const id of ids) expect(after.get(id), `recipient ${id}`).toBe(completed.includes(id) ? 1 : 2);
    // The same e-mail and link as the single resend.
    const [mail] = await database.db.select().from(emailMessages).where(and(eq(emailMessages.recipientId, ids[1]), eq(emailMessages.kind, "test_invitation"))).orderBy(sql`${emailMessages.createdAt} desc`).limit(1);
    const people = await readPeople(code);
    expect(mail.links).toEqual([(people.find((p) => p.id === ids[1]) as Person & { link: string }).link]);
  });

  it("with status sent e-mails only those who have not started", async () => {
    const { code, ids } = await newTest(5);
    await markCompleted([ids[0]]);
    await markStarted([ids[1], ids[2]]);
    const result = await resendAll(code, { status: "sent" });
    expect(result.status).toBe(202);
    expect(result.body).toEqual({ queued: 2, skipped: 3 });
    const after = await invitations(ids);
    expect(ids.map((id) => after.get(id))).toEqual([1, 1, 1, 2, 2]);
  });

  it("keeps the single resend's sent_at semantics: a handed-over link's first e-mail sets sent_at, an e-mailed one keeps it", async () => {
    const handed = await newTest(2, { sendEmail: false });
    expect((await readPeople(handed.code)).every((p) => p.sent_at === null && p.email_delivery.status === "not_sent")).toBe(true);
    expect((await resendAll(handed.code)).body).toEqual({ queued: 2, skipped: 0 });
    for (const person of await readPeople(handed.code)) {
      expect(person.sent_at).not.toBeNull();
      expect(person.last_emailed_at).toBe(person.sent_at);
      expect(person.email_delivery.status).toBe("queued");
    }

    const mailed = await newTest(1);
    const [first] = await readPeople(mailed.code);
    await database.db.execute(sql`update recipients set sent_at = sent_at - interval '2 hours', last_sent_at = last_sent_at - interval '2 hours' where test_id = ${mailed.testId}`);
    expect((await resendAll(mailed.code)).status).toBe(202);
    const [again] = await readPeople(mailed.code);
    expect(Date.parse(again.sent_at!)).toBe(Date.parse(first.sent_at!) - 2 * 3_600_000);
    expect(Date.parse(again.last_emailed_at!)).toBeGreaterThan(Date.parse(again.sent_at!));
  });

  it("allows one resend to all per test per window: 429 with Retry-After, other tests unaffected; a resend that e-mails nobody is not counted", async () => {
    const { code, testId, ids } = await newTest(3);
    const other = await newTest(1);
    expect((await resendAll(code)).status).toBe(202);
    const refused = await resendAll(code);
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe("rate_limit_exceeded");
    const wait = Number(refused.headers.get("retry-after"));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(RESEND_ALL_LIMIT.windowMs / 1000);
    expect(refused.body.error.retry_after).toBe(wait);
    expect([...(await invitations(ids)).values()]).toEqual([2, 2, 2]);
    expect((await resendAll(other.code)).status).toBe(202);

    await windowPassed(testId);
    // Nobody left to e-mail: answered, and not counted…
    await markCompleted(ids);
    expect((await resendAll(code)).body).toEqual({ queued: 0, skipped: 3 });
    // …so a resend once someone is due again is allowed.
    await database.db.update(recipients).set({ status: "sent", completedAt: null, result: null, percent: null }).where(eq(recipients.id, ids[0]));
    expect((await resendAll(code)).body).toEqual({ queued: 1, skipped: 2 });
    expect((await resendAll(code)).status).toBe(429);
  });

  it("20 at once: one e-mails everyone once, the others are refused with 429", async () => {
    const { code, ids } = await newTest(30);
    const results = await Promise.all(Array.from({ length: 20 }, () => resendAll(code)));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 202)).toHaveLength(1);
    expect(statuses.filter((s) => s === 429)).toHaveLength(19);
    for (const refused of results.filter((r) => r.status === 429)) {
      expect(refused.body.error.code).toBe("rate_limit_exceeded");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    const after = await invitations(ids);
    expect(ids.every((id) => after.get(id) === 2)).toBe(true);
  });

  // PostgreSQL only: PGlite has one connection, so the call below would wait for this transaction.
  it.runIf(onPostgres)("refuses at once, without waiting, while another resend to all of the test runs", async () => {
    const { code, testId, ids } = await newTest(2);
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('tests.resend_all'), ${testId})`);
      const busy = await resendAll(code);
      expect(busy.status).toBe(429);
      expect(busy.body.error.message).toMatch(/running now/);
      expect(Number(busy.headers.get("retry-after"))).toBe(RESEND_ALL_LIMIT.windowMs / 1000);
    });
    expect([...(await invitations(ids)).values()]).toEqual([1, 1]);
    // Not counted: once it is over, the test can be resent.
    expect((await resendAll(code)).status).toBe(202);
  });

  it("answers 404 for another workspace's test and an unknown code, and e-mails nobody", async () => {
    const { code, ids } = await newTest(2);
    const stranger = await createTrainer(database.db);
    const theirs = await resendAll(code, undefined, stranger.secret);
    expect(theirs.status).toBe(404);
    expect(theirs.body.error.code).toBe("not_found");
    expect((await resendAll("ZZZZZZZZ")).status).toBe(404);
    expect([...(await invitations(ids)).values()]).toEqual([1, 1]);
    // Not counted against the owner's window either.
    expect((await resendAll(code)).status).toBe(202);
  });

  it("refuses a closed test (409) and an unknown status (422)", async () => {
    const { code, testId } = await newTest(1, { closesAt: new Date(Date.now() + 3_600_000).toISOString() });
    expect((await resendAll(code, { status: "everyone" })).status).toBe(422);
    await database.db.update(tests).set({ closesAt: new Date(Date.now() - 1_000) }).where(eq(tests.id, testId));
    const closed = await resendAll(code);
    expect(closed.status).toBe(409);
    expect(closed.body.error.code).toBe("conflict");
  });
});
