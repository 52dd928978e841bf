import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addRecipients, getTest } from "@/lib/certification/tests/tests";
import { answers, events, recipients, scheduledSteps, testQuestions } from "@/db/schema";
import { openTest } from "@/lib/certification/taking/taking";
import { setPlan } from "@/lib/platform/workspaces";
import * as testsRoute from "@/app/api/v1/tests/route";
import * as testRoute from "@/app/api/v1/tests/[code]/route";
import * as startRoute from "@/app/api/t/[token]/start/route";
import * as answerRoute from "@/app/api/t/[token]/answers/route";
import * as submitRoute from "@/app/api/t/[token]/submit/route";
import { sleep } from "../../helpers/delivery";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { catalogCertification, createTrainer, type Trainer } from "../../helpers/fixtures";
import { call } from "../../helpers/http";
import { answerBody, rightAnswers, tokenOf, wrongAnswer } from "../../helpers/taking";
import { recipientByToken } from "../../helpers/tokens";

/**
 * The recipient's side of the settings, through the real route handlers: the start page
 * (opening the link changes nothing; Start, a POST, starts), the window, the deadline, option
 * shuffling scored against the right option, passed, and what the page shows of the answers.
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

let counter = 0;
/** A test of `questions` questions sent (without e-mail) to `people` fresh recipients; their tokens. */
async function newTest(settings: Record<string, unknown> = {}, { questions = 4, people = 1 } = {}) {
  const made = await call(testsRoute.POST, "/api/v1/tests", {
    method: "POST",
    key: trainer.secret,
    body: {
      certification_id: certificationId,
      domains: domainIds.slice(0, 2),
      questions,
      recipients: Array.from({ length: people }, () => ({ email: `taker${++counter}@example.com`, name: `Taker ${counter}` })),
      send_email: false,
      ...settings,
    },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return { code: made.body.code as string, tokens: (made.body.recipients as { link: string }[]).map((r) => tokenOf(r.link)), ids: (made.body.recipients as { id: number }[]).map((r) => r.id) };
}

const start = (token: string) => call(startRoute.POST, `/api/t/${token}/start`, { method: "POST", params: { token } });
const answer = (token: string, body: unknown) => call(answerRoute.PUT, `/api/t/${token}/answers`, { method: "PUT", params: { token }, body });
const submit = (token: string) => call(submitRoute.POST, `/api/t/${token}/submit`, { method: "POST", params: { token } });
const statusOf = async (code: string, index = 0) => (await call(testRoute.GET, `/api/v1/tests/${code}`, { key: trainer.secret, params: { code } })).body.recipients[index];
const recipientRow = (token: string) => recipientByToken(database.db, token);
const deadlineSteps = (recipientId: number) =>
  database.db.select().from(scheduledSteps).where(and(eq(scheduledSteps.kind, "test.deadline"), sql`(${scheduledSteps.payload}->>'recipientId')::int = ${recipientId}`));

/** Answers the recipient's questions through the route: right for the first `right` ones (in their order), wrong after; `skip` left unanswered. */
async function answerThrough(token: string, { right = Infinity, skip = 0 } = {}) {
  const view = (await openTest(database.db, token))!;
  const correct = await rightAnswers(database.db, token);
  const given = view.questions.slice(0, view.questions.length - skip);
  for (const [index, question] of given.entries()) {
    const value = correct.get(question.id)!;
    const saved = await answer(token, index < right ? answerBody(question, value) : wrongAnswer(question, value));
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  }
  return view;
}

describe("the start page: opening the link starts nothing", () => {
  it("a fetch of the personal link without pressing Start leaves the recipient `sent`, however often", async () => {
    const { code, tokens } = await newTest({ time_limit_minutes: 30 });
    for (let i = 0; i < 3; i++) {
      const view = await openTest(database.db, tokens[0]);
      expect(view).toMatchObject({ status: "sent", window: "open", deadline: null, startedAt: null, questions: [], answers: {} });
      expect(view!.test).toMatchObject({ questions: 4, timeLimitMinutes: 30 });
    }
    expect(await statusOf(code)).toMatchObject({ status: "sent", started_at: null });
    expect(await recipientRow(tokens[0])).toMatchObject({ status: "sent", startedAt: null, deadlineAt: null, lastActivityAt: null });
  });

  it("refuses answers and submission before Start (409), and writes nothing", async () => {
    const { code, tokens } = await newTest();
    const [question] = await database.db.select().from(testQuestions).where(eq(testQuestions.id, (await recipientRow(tokens[0])).questionOrder[0]));
    const early = await answer(tokens[0], { question_id: question.id, option: 0 });
    expect(early.status).toBe(409);
    expect(early.body.error).toMatchObject({ code: "conflict", message: expect.stringMatching(/press Start/) });
    expect((await submit(tokens[0])).status).toBe(409);
    expect(await database.db.select().from(answers).where(eq(answers.recipientId, (await recipientRow(tokens[0])).id))).toEqual([]);
    expect((await statusOf(code)).status).toBe("sent");
  });

  it("Start (POST) starts the test and its clock, once: repeated and concurrent Starts answer the same, one deadline step", async () => {
    const { code, tokens, ids } = await newTest({ time_limit_minutes: 20 });
    const before = Date.now();
    const results = await Promise.all(Array.from({ length: 8 }, () => start(tokens[0])));
    for (const result of results) expect(result.status, JSON.stringify(result.body)).toBe(200);
    const first = results[0].body;
    expect(first.status).toBe("started");
    for (const result of results) expect(result.body).toEqual(first);
    expect(Date.parse(first.started_at)).toBeGreaterThanOrEqual(before - 5);
    expect(Date.parse(first.deadline) - Date.parse(first.started_at)).toBe(20 * 60_000);
    expect(await start(tokens[0])).toMatchObject({ status: 200, body: first });
    expect(await statusOf(code)).toMatchObject({ status: "started", started_at: first.started_at });
    const steps = await deadlineSteps(ids[0]);
    expect(steps).toHaveLength(1);
    expect(steps[0]).toMatchObject({ status: "pending", workspaceId: trainer.workspaceId });
    expect(steps[0].runAt.toISOString()).toBe(first.deadline);
    // The page now carries the questions and the deadline, with the server's clock.
    const view = (await openTest(database.db, tokens[0]))!;
    expect(view).toMatchObject({ status: "started", deadline: first.deadline, startedAt: first.started_at });
    expect(view.questions).toHaveLength(4);
    expect(Math.abs(Date.parse(view.now) - Date.now())).toBeLessThan(5_000);
  });

  it("a test without limit or window gets no deadline and no step", async () => {
    const { tokens, ids } = await newTest();
    expect((await start(tokens[0])).body).toMatchObject({ status: "started", deadline: null });
    expect(await deadlineSteps(ids[0])).toEqual([]);
  });

  it("answers 404 to unknown and malformed tokens, the same way", async () => {
    const unknown = await start("A".repeat(32));
    const malformed = await start("not a token");
    expect(unknown.status).toBe(404);
    expect(malformed.status).toBe(404);
    expect(unknown.body.error.message).toBe(malformed.body.error.message);
  });
});

describe("the window", () => {
  it("before opens_at: the page says when it opens, Start is refused (409) and the recipient stays sent", async () => {
    const opensAt = new Date(Date.now() + 3_600_000);
    const { code, tokens } = await newTest({ opens_at: opensAt.toISOString() });
    expect(await openTest(database.db, tokens[0])).toMatchObject({ status: "sent", window: "not_open", test: { opensAt: opensAt.toISOString() } });
    const refused = await start(tokens[0]);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(/opens at/);
    expect((await statusOf(code)).status).toBe("sent");
  });

  it("from closes_at on: the page says it is closed and Start is refused (409)", async () => {
    const closesAt = new Date(Date.now() + 1_500);
    const { code, tokens } = await newTest({ closes_at: closesAt.toISOString() });
    expect((await openTest(database.db, tokens[0]))!.window).toBe("open");
    await sleep(closesAt.getTime() - Date.now() + 50);
    expect((await openTest(database.db, tokens[0]))!.window).toBe("closed");
    const refused = await start(tokens[0]);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(/closed at/);
    expect((await statusOf(code)).status).toBe("sent");
  });

  it("from closes_at on, adding recipients is refused (409) and adds nobody: nobody could start it (found from outside: 201, then a dead link)", async () => {
    const closesAt = new Date(Date.now() + 1_000);
    const { code } = await newTest({ closes_at: closesAt.toISOString() });
    await sleep(closesAt.getTime() - Date.now() + 50);
    const refused = addRecipients(database.db, trainer.workspaceId, code, { recipients: [{ email: "late-joiner@example.com", name: "", extra_time_minutes: 0 }], send_email: true });
    await expect(refused).rejects.toMatchObject({ code: "conflict", message: expect.stringMatching(/^This test closed at .*could not start it\.$/) });
    expect((await getTest(database.db, trainer.workspaceId, code)).recipients.map((r) => r.email)).not.toContain("late-joiner@example.com");
  });

  it("the deadline is the time limit or closes_at, whichever comes first", async () => {
    const closesAt = new Date(Date.now() + 10 * 60_000);
    const byClose = await newTest({ time_limit_minutes: 30, closes_at: closesAt.toISOString() });
    expect((await start(byClose.tokens[0])).body.deadline).toBe(closesAt.toISOString());
    const byLimit = await newTest({ time_limit_minutes: 5, closes_at: closesAt.toISOString() });
    const started = (await start(byLimit.tokens[0])).body;
    expect(Date.parse(started.deadline) - Date.parse(started.started_at)).toBe(5 * 60_000);
    const windowOnly = await newTest({ closes_at: closesAt.toISOString() });
    expect((await start(windowOnly.tokens[0])).body.deadline).toBe(closesAt.toISOString());
  });
});

describe("the deadline, enforced by the server", () => {
  /** Moves a started attempt's clock back, as if its deadline had passed `agoMs` ago. */
  async function pastDeadline(token: string, agoMs = 1_000) {
    const row = await recipientRow(token);
    const shift = row.deadlineAt!.getTime() - (Date.now() - agoMs);
    await database.db
      .update(recipients)
      .set({ startedAt: new Date(row.startedAt!.getTime() - shift), deadlineAt: new Date(row.deadlineAt!.getTime() - shift) })
      .where(eq(recipients.id, row.id));
    return new Date(row.deadlineAt!.getTime() - shift);
  }

  it("refuses answers from the deadline on with a clear JSON error, and a submit then counts unanswered questions as wrong", async () => {
    const { code, tokens, ids } = await newTest({ time_limit_minutes: 10 }, { questions: 4 });
    await start(tokens[0]);
    const view = await answerThrough(tokens[0], { right: 2, skip: 1 }); // 2 right, 1 wrong, 1 unanswered
    const deadline = await pastDeadline(tokens[0]);
    const late = await answer(tokens[0], { question_id: view.questions[3].id, option: 0 });
    expect(late.status).toBe(409);
    expect(late.body.error).toMatchObject({ code: "conflict", message: expect.stringMatching(/^Time is up/), request_id: expect.stringMatching(/^req_/) });
    expect(await database.db.select().from(answers).where(eq(answers.recipientId, ids[0]))).toHaveLength(3);

    const submitted = await submit(tokens[0]);
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    expect(submitted.body).toMatchObject({ correct: 2, questions: 4, percent: 50, passed: null });
    expect(await statusOf(code)).toMatchObject({ status: "completed", completed_at: deadline.toISOString(), result: { correct: 2, questions: 4 } });
    expect(await database.db.select().from(events).where(sql`${events.type} = 'test.completed' and ${events.data}->>'test' = ${code}`)).toHaveLength(1);
  });

  it("before the deadline, a submit still needs every answer", async () => {
    const { tokens } = await newTest({ time_limit_minutes: 10 });
    await start(tokens[0]);
    await answerThrough(tokens[0], { skip: 1 });
    const early = await submit(tokens[0]);
    expect(early.status).toBe(422);
    expect(early.body.error.fields).toEqual([{ field: "answers.4", message: "Not answered yet." }]);
  });
});

describe("options shuffled per recipient, scored against the right option", () => {
  it("gives each recipient an order of their own, maps positions on the server and scores the right option", async () => {
    const { code, tokens } = await newTest({ pass_mark: 60 }, { questions: 10, people: 2 });
    const views = [];
    for (const token of tokens) {
      await start(token);
      views.push((await openTest(database.db, token))!);
    }
    const frozen = new Map((await database.db.select().from(testQuestions)).map((q) => [q.id, q]));
    const orders = await Promise.all(tokens.map(async (token) => (await recipientRow(token)).optionOrders!));
    for (const [index, view] of views.entries()) {
      for (const question of view.questions) {
        const original = frozen.get(question.id)!.options;
        // The page shows the question's options, each once, in this recipient's order; nothing says which is right.
        expect([...question.options].sort()).toEqual([...original].sort());
        expect(question.options).toEqual(orders[index][String(question.id)].map((i) => original[i]));
        expect(Object.keys(question).sort()).toEqual(["choose", "domain", "id", "options", "prompt", "type"]);
      }
    }
    // Shuffled: with 10 questions of 4 options, some question is not in its own order, and the two recipients' orders differ.
    const identity = (order: number[]) => order.every((value, index) => value === index);
    expect(Object.values(orders[0]).some((order) => !identity(order))).toBe(true);
    expect(JSON.stringify(orders[0])).not.toBe(JSON.stringify(orders[1]));

    // The first recipient answers by position as shown: 6 right. Stored in the question's own order.
    await answerThrough(tokens[0], { right: 6 });
    const stored = await database.db.select().from(answers).where(eq(answers.recipientId, (await recipientRow(tokens[0])).id));
    const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
    const rightStored = (a: (typeof stored)[number]) => {
      const q = frozen.get(a.questionId)!;
      return q.correctIndexes ? same(a.optionIndexes, q.correctIndexes) : a.optionIndex === q.correctIndex;
    };
    expect(stored.filter(rightStored)).toHaveLength(6);
    expect((await submit(tokens[0])).body).toMatchObject({ correct: 6, questions: 10, percent: 60, passed: true });
    // The page after completion shows the chosen and the correct options at their positions on this page.
    const done = (await openTest(database.db, tokens[0]))!;
    const correct = await rightAnswers(database.db, tokens[0]);
    for (const question of done.questions) expect(done.review![question.id].correct).toEqual(correct.get(question.id));
    expect(done.questions.filter((q) => same(done.answers[q.id], correct.get(q.id)))).toHaveLength(6);

    // The second answers every question with the question's own index of the right option (what a client guessing the stored order would send): scored as the options it names on its page.
    const second = views[1];
    const mine = await rightAnswers(database.db, tokens[1]);
    const ownKey = (id: number) => frozen.get(id)!.correctIndexes ?? frozen.get(id)!.correctIndex;
    for (const question of second.questions) {
      const saved = await answer(tokens[1], answerBody(question, ownKey(question.id)));
      expect(saved.status).toBe(200);
    }
    const expectedRight = second.questions.filter((q) => same(ownKey(q.id), mine.get(q.id))).length;
    expect((await submit(tokens[1])).body.correct).toBe(expectedRight);
    expect((await statusOf(code, 1)).result.passed).toBe(expectedRight * 10 >= 60);
  });

  it("refuses a position beyond the question's options and a question of another test (422)", async () => {
    const { tokens } = await newTest();
    const other = await newTest();
    await start(tokens[0]);
    const view = (await openTest(database.db, tokens[0]))!;
    const single = view.questions.find((q) => q.type === "single")!;
    const beyond = await answer(tokens[0], { question_id: single.id, option: single.options.length });
    expect(beyond.status).toBe(422);
    expect(beyond.body.error.fields).toEqual([{ field: "option", message: "No such option." }]);
    const foreign = (await recipientRow(other.tokens[0])).questionOrder[0];
    const wrongTest = await answer(tokens[0], { question_id: foreign, option: 0 });
    expect(wrongTest.status).toBe(422);
    expect(wrongTest.body.error.fields[0].field).toBe("question_id");
  });

  it("keeps each question's own order with shuffle_options: false", async () => {
    const { tokens } = await newTest({ shuffle_options: false }, { questions: 6 });
    await start(tokens[0]);
    const view = (await openTest(database.db, tokens[0]))!;
    const frozen = new Map((await database.db.select().from(testQuestions)).map((q) => [q.id, q]));
    for (const question of view.questions) expect(question.options).toEqual(frozen.get(question.id)!.options);
  });
});

describe("pass mark and show_answers on the result", () => {
  it("passed is true at the pass mark, false below it, null without one, in the submit answer, the API and the event", async () => {
    for (const [settings, right, passed] of [
      [{ pass_mark: 50 }, 2, true],
      [{ pass_mark: 50.1 }, 2, false],
      [{}, 2, null],
    ] as const) {
      const { code, tokens } = await newTest(settings);
      await start(tokens[0]);
      await answerThrough(tokens[0], { right });
      expect((await submit(tokens[0])).body).toMatchObject({ percent: 50, passed });
      expect((await statusOf(code)).result).toMatchObject({ percent: 50, passed });
      const [event] = await database.db.select().from(events).where(sql`${events.type} = 'test.completed' and ${events.data}->>'test' = ${code}`);
      expect(event.data).toMatchObject({ score: 50, passed });
      expect((await openTest(database.db, tokens[0]))!.result).toMatchObject({ passed });
    }
  });

  it("after_submit shows the correct answers at once; never withholds them; after_close withholds them until closes_at", async () => {
    const shown = await newTest({ show_answers: "after_submit" });
    const never = await newTest({ show_answers: "never" });
    const closesAt = new Date(Date.now() + 2_500);
    const afterClose = await newTest({ show_answers: "after_close", closes_at: closesAt.toISOString() });
    for (const test of [shown, never, afterClose]) {
      await start(test.tokens[0]);
      await answerThrough(test.tokens[0]);
      expect((await submit(test.tokens[0])).status).toBe(200);
    }
    const shownView = (await openTest(database.db, shown.tokens[0]))!;
    expect(shownView.review).not.toBeNull();
    expect(shownView.reviewWithheld).toBeNull();
    const neverView = (await openTest(database.db, never.tokens[0]))!;
    expect(neverView).toMatchObject({ review: null, reviewWithheld: { until: null }, result: { percent: 100 } });
    const early = (await openTest(database.db, afterClose.tokens[0]))!;
    expect(early).toMatchObject({ review: null, reviewWithheld: { until: closesAt.toISOString() } });
    await sleep(closesAt.getTime() - Date.now() + 50);
    const late = (await openTest(database.db, afterClose.tokens[0]))!;
    expect(late.reviewWithheld).toBeNull();
    expect(Object.keys(late.review!)).toHaveLength(4);
  });
});
