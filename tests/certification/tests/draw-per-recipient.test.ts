import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { classInvitations, events, questions, recipients, testQuestions, tests, users } from "@/db/schema";
import { joinClass } from "@/lib/certification/classes/invitations";
import { testResultsCsv } from "@/lib/certification/insight/export";
import { saveAnswer, submitTest } from "@/lib/certification/taking/taking";
import { getTest } from "@/lib/certification/tests/tests";
import { setPlan } from "@/lib/platform/workspaces";
import * as testsRoute from "@/app/api/v1/tests/route";
import * as recipientsRoute from "@/app/api/v1/tests/[code]/recipients/route";
import * as answersRoute from "@/app/api/v1/tests/[code]/recipients/[id]/answers/route";
import * as analysisRoute from "@/app/api/v1/tests/[code]/analysis/route";
import * as classesRoute from "@/app/api/v1/classes/route";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { catalogCertification, createTrainer, type Trainer } from "../../helpers/fixtures";
import { call } from "../../helpers/http";
import { answerAll, someAnswer, startAndOpen, tokenOf } from "../../helpers/taking";
import { invitationToken, recipientByToken } from "../../helpers/tokens";

/**
 * draw per_recipient (issue 23): the test holds every question of its domains (the pool),
 * each recipient their own random set with the test's count per domain, drawn when they are
 * sent the test (creation, added recipients, a class). Results, the answer sheet, the CSV,
 * `test.completed` and the analysis (with `given`) are each recipient's own; per_test is as it was.
 */

let database: TestDatabase;
let trainer: Trainer;
let certificationId: number;
let domainIds: number[];
let poolSize: Map<number, number>;

beforeAll(async () => {
  database = await createTestDatabase();
  trainer = await createTrainer(database.db);
  await setPlan(database.db, trainer.workspaceId, "pro");
  ({ certificationId, domainIds } = await catalogCertification(database.db));
  const rows = await database.db
    .select({ domainId: questions.domainId, n: sql<number>`count(*)::int` })
    .from(questions)
    .where(inArray(questions.domainId, domainIds.slice(0, 2)))
    .groupBy(questions.domainId);
  poolSize = new Map(rows.map((row) => [row.domainId, Number(row.n)]));
});
afterAll(() => database.drop());

let counter = 0;
const email = (who: string) => `${who}-${++counter}@example.com`;
const create = (body: Record<string, unknown>) => call(testsRoute.POST, "/api/v1/tests", { method: "POST", key: trainer.secret, body: { send_email: false, ...body } });
const perDomain = (a: number, b: number) => [
  { domain_id: domainIds[0], questions: a },
  { domain_id: domainIds[1], questions: b },
];

/** The test's row and its frozen questions' domains by id. */
async function frozen(code: string) {
  const [test] = await database.db.select().from(tests).where(eq(tests.code, code));
  const rows = await database.db.select({ id: testQuestions.id, domainId: testQuestions.domainId }).from(testQuestions).where(eq(testQuestions.testId, test.id));
  return { test, domainOf: new Map(rows.map((row) => [row.id, row.domainId])) };
}

/** Checks one recipient's draw: the test's count per domain, from the pool, distinct; option orders for exactly those questions. */
function expectOwnDraw(recipient: typeof recipients.$inferSelect, domainOf: Map<number, number>, a: number, b: number) {
  const order = recipient.questionOrder;
  expect(order).toHaveLength(a + b);
  expect(new Set(order).size).toBe(a + b);
  expect(order.filter((id) => domainOf.get(id) === domainIds[0])).toHaveLength(a);
  expect(order.filter((id) => domainOf.get(id) === domainIds[1])).toHaveLength(b);
  expect(Object.keys(recipient.optionOrders ?? {}).map(Number).sort()).toEqual([...order].sort());
}

const setOf = (order: number[]) => [...order].sort((x, y) => x - y).join(",");

describe("draw per_recipient", () => {
  it("copies the whole pool, and gives each recipient their own set with the count per domain", async () => {
    const people = Array.from({ length: 6 }, (_, i) => ({ email: email(`p${i}`), name: `P${i}` }));
    const made = await create({ certification_id: certificationId, questions_per_domain: perDomain(2, 3), recipients: people, draw: "per_recipient" });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ draw: "per_recipient", questions: 5, domains: [{ questions: 2 }, { questions: 3 }] });

    const { test, domainOf } = await frozen(made.body.code);
    expect(test.questionCount).toBe(5);
    expect(domainOf.size).toBe(poolSize.get(domainIds[0])! + poolSize.get(domainIds[1])!);
    const rows = await database.db.select().from(recipients).where(eq(recipients.testId, test.id));
    expect(rows).toHaveLength(6);
    for (const row of rows) expectOwnDraw(row, domainOf, 2, 3);
    // Six draws of 2 and 3 out of pools of about a dozen each: all alike would be a broken draw.
    expect(new Set(rows.map((row) => setOf(row.questionOrder))).size).toBeGreaterThan(1);

    // Each page shows the recipient's own 5 questions; a pool question of someone else's set is refused.
    const [first, second] = made.body.recipients.map((r: { link: string }) => tokenOf(r.link));
    const view = await startAndOpen(database.db, first);
    expect(view.test.questions).toBe(5);
    const own = (await recipientByToken(database.db, first)).questionOrder;
    expect(view.questions.map((q) => q.id)).toEqual(own);
    const notMine = [...domainOf.keys()].find((id) => !own.includes(id))!;
    await expect(saveAnswer(database.db, first, { question_id: notMine, option: 0 })).rejects.toMatchObject({ code: "validation_failed", fields: [{ field: "question_id", message: "Not a question of this test." }] });
    await startAndOpen(database.db, second);
  });

  it("scores, shows and exports each recipient's own set; test.completed and the analysis (given) follow it", async () => {
    const people = Array.from({ length: 4 }, (_, i) => ({ email: email(`s${i}`), name: `S${i}` }));
    const made = await create({ certification_id: certificationId, questions_per_domain: perDomain(2, 2), recipients: people, draw: "per_recipient", pass_mark: 50 });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const code = made.body.code as string;
    const tokens: string[] = made.body.recipients.map((r: { link: string }) => tokenOf(r.link));
    const ids: number[] = made.body.recipients.map((r: { id: number }) => r.id);

    // Three complete (3, 1 and 4 of their 4 right); the fourth starts and answers one.
    const right = [3, 1, 4];
    for (const [index, token] of tokens.slice(0, 3).entries()) {
      await answerAll(database.db, token, right[index]);
      const result = await submitTest(database.db, token);
      expect(result).toMatchObject({ questions: 4, correct: right[index], percent: right[index] * 25, passed: right[index] >= 2 });
      expect(result.domains.map((d) => d.questions)).toEqual([2, 2]);
    }
    const started = await startAndOpen(database.db, tokens[3]);
    await saveAnswer(database.db, tokens[3], someAnswer(started.questions[0]));

    // test.completed carries the recipient's own count.
    const published = await database.db.select().from(events).where(and(eq(events.type, "test.completed"), sql`${events.data}->>'test' = ${code}`));
    expect(published.map((e) => (e.data as { questions: number }).questions)).toEqual([4, 4, 4]);

    // The answer sheet: the recipient's own questions, in their order.
    for (const [index, token] of tokens.slice(0, 3).entries()) {
      const sheet = await call(answersRoute.GET, `/api/v1/tests/${code}/recipients/${ids[index]}/answers`, { key: trainer.secret, params: { code, id: String(ids[index]) } });
      expect(sheet.status).toBe(200);
      expect(sheet.body).toMatchObject({ questions: 4, answered: 4, correct: right[index] });
      expect(sheet.body.answers.map((a: { question_id: number }) => a.question_id)).toEqual((await recipientByToken(database.db, token)).questionOrder);
    }

    // The CSV: each completed row has 4 questions and its own score.
    const csv = testResultsCsv(await getTest(database.db, trainer.workspaceId, code)).split("\r\n");
    const header = csv[0].split(",");
    const column = (name: string) => header.indexOf(name);
    for (const [index, person] of people.slice(0, 3).entries()) {
      const line = csv.find((row) => row.startsWith(person.email))!.split(",");
      expect([line[column("questions")], line[column("correct")], line[column("percent")]]).toEqual(["4", String(right[index]), String(right[index] * 25)]);
    }

    // The analysis: every question anyone was given (any status), `given` = completed recipients holding it.
    const analysis = await call(analysisRoute.GET, `/api/v1/tests/${code}/analysis`, { key: trainer.secret, params: { code } });
    expect(analysis.status).toBe(200);
    const rows = await database.db.select().from(recipients).where(inArray(recipients.id, ids));
    const completedRows = rows.filter((row) => row.status === "completed");
    const anyone = new Set(rows.flatMap((row) => row.questionOrder));
    const listed = analysis.body.questions as { question_id: number; given: number; correct: number; percent_correct: number | null }[];
    expect(listed.map((q) => q.question_id).sort((x, y) => x - y)).toEqual([...anyone].sort((x, y) => x - y));
    for (const question of listed) {
      const given = completedRows.filter((row) => row.questionOrder.includes(question.question_id)).length;
      expect(question.given).toBe(given);
      expect(question.percent_correct).toBe(given ? Math.round((question.correct / given) * 1000) / 10 : null);
    }
    expect(listed.reduce((sum, q) => sum + q.given, 0)).toBe(3 * 4);
    expect(listed.reduce((sum, q) => sum + q.correct, 0)).toBe(3 + 1 + 4);
    expect(analysis.body).toMatchObject({ completed: 3, in_progress: 1, average_percent: Math.round(((3 + 1 + 4) / 12) * 1000) / 10 });
  });

  it("gives added recipients and a class's students their own draw", async () => {
    const made = await create({ certification_id: certificationId, questions_per_domain: perDomain(3, 1), recipients: [{ email: email("first") }], draw: "per_recipient" });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const code = made.body.code as string;
    const added = await call(recipientsRoute.POST, `/api/v1/tests/${code}/recipients`, {
      method: "POST",
      key: trainer.secret,
      params: { code },
      body: { recipients: [{ email: email("late1") }, { email: email("late2") }, { email: email("late3") }], send_email: false },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const { test, domainOf } = await frozen(code);
    const rows = await database.db.select().from(recipients).where(eq(recipients.testId, test.id));
    expect(rows).toHaveLength(4);
    for (const row of rows) expectOwnDraw(row, domainOf, 3, 1);

    // A class of three joined students.
    const students = [email("ada"), email("bob"), email("cy")];
    const klass = await call(classesRoute.POST, "/api/v1/classes", { method: "POST", key: trainer.secret, body: { name: `Class ${counter}`, certification_id: certificationId, emails: students } });
    expect(klass.status, JSON.stringify(klass.body)).toBe(201);
    for (const address of students) {
      const [invitation] = await database.db.select().from(classInvitations).where(eq(classInvitations.email, address));
      const [user] = await database.db.insert(users).values({ email: address }).returning();
      await joinClass(database.db, invitationToken(invitation), { id: user.id, email: address });
    }
    const sent = await create({ certification_id: certificationId, questions_per_domain: perDomain(1, 2), class_id: klass.body.id, draw: "per_recipient" });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const classTest = await frozen(sent.body.code);
    const classRows = await database.db.select().from(recipients).where(eq(recipients.testId, classTest.test.id));
    expect(classRows.map((row) => row.email).sort()).toEqual([...students].sort());
    for (const row of classRows) expectOwnDraw(row, classTest.domainOf, 1, 2);
  });

  it("a domain too small for the count is the same field error, and nothing is written", async () => {
    const [{ before }] = await database.db.select({ before: sql<number>`count(*)::int` }).from(tests);
    const tooMany = poolSize.get(domainIds[1])! + 1;
    const refused = await create({ certification_id: certificationId, questions_per_domain: perDomain(1, tooMany), recipients: [{ email: email("x") }], draw: "per_recipient" });
    expect(refused.status).toBe(422);
    expect(refused.body.error.fields).toEqual([{ field: "questions_per_domain.1", message: expect.stringContaining(`${tooMany} were asked for`) }]);
    const [{ after }] = await database.db.select({ after: sql<number>`count(*)::int` }).from(tests);
    expect(after).toBe(before);
    // The whole domain is allowed: every recipient then has all of it.
    const whole = poolSize.get(domainIds[1])!;
    const made = await create({ certification_id: certificationId, questions_per_domain: perDomain(1, whole), recipients: [{ email: email("y") }], draw: "per_recipient" });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
  });

  it("per_test (the default) is as it was: the drawn set only, the same for everyone", async () => {
    const people = Array.from({ length: 3 }, (_, i) => ({ email: email(`t${i}`) }));
    const made = await create({ certification_id: certificationId, questions_per_domain: perDomain(2, 3), recipients: people });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.draw).toBe("per_test");
    const { test, domainOf } = await frozen(made.body.code);
    expect(domainOf.size).toBe(5);
    const rows = await database.db.select().from(recipients).where(eq(recipients.testId, test.id));
    for (const row of rows) expectOwnDraw(row, domainOf, 2, 3);
    expect(new Set(rows.map((row) => setOf(row.questionOrder))).size).toBe(1);
    expect(setOf(rows[0].questionOrder)).toBe(setOf([...domainOf.keys()]));
  });
});
