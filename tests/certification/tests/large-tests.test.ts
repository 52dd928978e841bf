import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { attemptIntegrity, emailMessages, recipients, tests } from "@/db/schema";
import { sendReminders } from "@/lib/certification/tests/follow-up";
import { getTest } from "@/lib/certification/tests/tests";
import { CSV_RECIPIENTS_PER_READ, testResultsCsv } from "@/lib/certification/insight/export";
import { integrityRecords } from "@/lib/certification/integrity/summary";
import { setPlan } from "@/lib/platform/workspaces";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { catalogCertification, createTrainer, type Trainer } from "../../helpers/fixtures";
import { call } from "../../helpers/http";
import { signInAs } from "../../helpers/session";

/**
 * A test of more recipients than one read of the paths that page them (CSV_RECIPIENTS_PER_READ,
 * the reminder's rounds of 500): GET /tests/{code} whole and paged, the streamed CSV, the
 * reminder in rounds. No timing here: bench/scale.ts measures.
 */
vi.mock("@/lib/platform/auth/session", () => import("../../helpers/session"));
const testsRoute = await import("@/app/api/v1/tests/route");
const testRoute = await import("@/app/api/v1/tests/[code]/route");
const exportRoute = await import("@/app/api/app/tests/[code]/export/route");

const RECIPIENTS = CSV_RECIPIENTS_PER_READ + 30;

let database: TestDatabase;
let trainer: Trainer;
let code: string;
let testId: number;

beforeAll(async () => {
  database = await createTestDatabase();
  trainer = await createTrainer(database.db);
  await setPlan(database.db, trainer.workspaceId, "pro");
  signInAs(trainer);
  const { certificationId, domainIds } = await catalogCertification(database.db);
  const created = await call(testsRoute.POST, "/api/v1/tests", {
    method: "POST",
    key: trainer.secret,
    body: {
      certification_id: certificationId,
      domains: domainIds.slice(0, 2),
      questions: 4,
      reminder_after_hours: 1,
      recipients: Array.from({ length: RECIPIENTS }, (_, i) => ({ email: `person-${String(i).padStart(4, "0")}@example.com`, name: i === 3 ? "=Formula, Name" : `Person ${i}` })),
    },
  });
  expect(created.status).toBe(201);
  code = created.body.code;
  [{ id: testId }] = await database.db.select({ id: tests.id }).from(tests).where(eq(tests.code, code));
  // Results on both sides of the first read's boundary, an integrity record, a bounced e-mail.
  const ids = (await database.db.select({ id: recipients.id }).from(recipients).where(eq(recipients.testId, testId)).orderBy(recipients.id)).map((r) => r.id);
  const done = [ids[0], ids[CSV_RECIPIENTS_PER_READ - 1], ids[CSV_RECIPIENTS_PER_READ], ids[RECIPIENTS - 1]];
  await database.db
    .update(recipients)
    .set({
      status: "completed",
      startedAt: new Date(Date.now() - 600_000),
      completedAt: new Date(),
      percent: 75,
      result: { percent: 75, correct: 3, questions: 4, passed: null, domains: [] },
    })
    .where(inArray(recipients.id, done));
  await database.db.update(recipients).set({ status: "started", startedAt: new Date() }).where(eq(recipients.id, ids[1]));
  await database.db.insert(attemptIntegrity).values({ recipientId: ids[CSV_RECIPIENTS_PER_READ], browsers: ["a", "b"], hiddenCount: 2, hiddenMs: 5_000 });
  await database.db.update(emailMessages).set({ status: "sent", deliveryStatus: "bounced", deliveryDetail: "no such mailbox" }).where(eq(emailMessages.recipientId, ids[7]));
});
afterAll(() => database.drop());

const getWhole = () => call(testRoute.GET, `/api/v1/tests/${code}`, { key: trainer.secret, params: { code } });
const getPage = (query: Record<string, string | number>) => call(testRoute.GET, `/api/v1/tests/${code}`, { key: trainer.secret, params: { code }, query });

describe("GET /api/v1/tests/{code} of a large test", () => {
  it("returns every recipient, in id order, without paging fields, as the specification says", async () => {
    const whole = await getWhole();
    expect(whole.status).toBe(200);
    expect(whole.body.recipients).toHaveLength(RECIPIENTS);
    const ids = whole.body.recipients.map((r: { id: number }) => r.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(whole.body).not.toHaveProperty("recipients_pagination");
    expect(whole.body).not.toHaveProperty("email_problems");
    expect(whole.body).toMatchObject({ started: 5, completed: 4 });
    expect(whole.body.recipients[7].email_delivery).toMatchObject({ status: "bounced", detail: "no such mailbox" });
    expect(whole.body.recipients[CSV_RECIPIENTS_PER_READ].integrity_flagged).toBe(true);
  });

  it("pages the recipients with recipients_page / recipients_per_page: the same views, the totals of all", async () => {
    const whole = (await getWhole()).body;
    const second = await getPage({ recipients_page: 2, recipients_per_page: 200 });
    expect(second.status).toBe(200);
    expect(second.body.recipients).toEqual(whole.recipients.slice(200, 400));
    expect(second.body.recipients_pagination).toEqual({ page: 2, per_page: 200, total: RECIPIENTS });
    expect(second.body).toMatchObject({ started: 5, completed: 4, email_problems: 1, code: whole.code, domains: whole.domains });

    const last = await getPage({ recipients_page: 3, recipients_per_page: 200 });
    expect(last.body.recipients).toEqual(whole.recipients.slice(400));
    expect((await getPage({ recipients_page: 99, recipients_per_page: 200 })).body.recipients).toEqual([]);
    // One of the two given: the other defaults (page 1; 100 per page).
    const defaults = await getPage({ recipients_page: 1 });
    expect(defaults.body.recipients_pagination).toEqual({ page: 1, per_page: 100, total: RECIPIENTS });
    expect(defaults.body.recipients).toEqual(whole.recipients.slice(0, 100));
    expect((await getPage({ recipients_per_page: 3 })).body.recipients).toEqual(whole.recipients.slice(0, 3));
  });

  it("refuses a page size beyond 1,000 and a page below 1 (422, field by field)", async () => {
    const tooMany = await getPage({ recipients_per_page: 1001 });
    expect(tooMany.status).toBe(422);
    expect(JSON.stringify(tooMany.body)).toContain("recipients_per_page");
    const zero = await getPage({ recipients_page: 0 });
    expect(zero.status).toBe(422);
    expect(JSON.stringify(zero.body)).toContain("recipients_page");
  });

  it("is what the trainer's page reads: page 1 from the domain function equals the route's", async () => {
    const fromPage = await getTest(database.db, trainer.workspaceId, code, { page: 1, per_page: 50 });
    const fromRoute = await getPage({ recipients_page: 1, recipients_per_page: 50 });
    expect(JSON.parse(JSON.stringify(fromPage))).toEqual(fromRoute.body);
  });
});

describe("the results CSV of a large test", () => {
  it("streams the same bytes as the whole file built at once, across reads", async () => {
    const response = await exportRoute.GET(new Request(`http://localhost/api/app/tests/${code}/export`), { params: Promise.resolve({ code }) });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.body).toBeInstanceOf(ReadableStream);
    const streamed = await response.text();

    const test = await getTest(database.db, trainer.workspaceId, code);
    const expected = testResultsCsv(test, await integrityRecords(database.db, test.recipients.map((r) => r.id)));
    expect(streamed).toBe(expected);
    const lines = streamed.split("\r\n");
    expect(lines).toHaveLength(RECIPIENTS + 2); // header, one per recipient, the empty string after the last CRLF
    expect(lines[CSV_RECIPIENTS_PER_READ + 1]).toContain(",completed,");
    expect(lines[4]).toContain(`"'=Formula, Name"`);
  });

  it("answers 404 for an unknown code before streaming anything", async () => {
    const response = await exportRoute.GET(new Request("http://localhost/api/app/tests/ZZZZZZZZ/export"), { params: Promise.resolve({ code: "ZZZZZZZZ" }) });
    expect(response.status).toBe(404);
  });
});

describe("the reminder of a large test", () => {
  it("reminds every due recipient once, in rounds, and nobody twice", async () => {
    await database.db.execute(sql`update recipients set sent_at = sent_at - interval '61 minutes' where test_id = ${testId}`);
    const due = RECIPIENTS - 4; // the completed are not reminded
    expect(await sendReminders(database.db, testId)).toBe(due);
    const mails = await database.db
      .select({ recipientId: emailMessages.recipientId, n: sql<number>`count(*)::int` })
      .from(emailMessages)
      .innerJoin(recipients, eq(recipients.id, emailMessages.recipientId))
      .where(and(eq(recipients.testId, testId), eq(emailMessages.kind, "test_reminder")))
      .groupBy(emailMessages.recipientId);
    expect(mails).toHaveLength(due);
    expect(mails.every((row) => Number(row.n) === 1)).toBe(true);
    expect(await sendReminders(database.db, testId)).toBe(0);
  });
});
