import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answers, testQuestions } from "@/db/schema";
import { createCertification } from "@/lib/certification/catalog/catalog";
import { createCertificationInput } from "@/lib/certification/catalog/schemas";
import { openTest } from "@/lib/certification/taking/taking";
import * as testsRoute from "@/app/api/v1/tests/route";
import * as startRoute from "@/app/api/t/[token]/start/route";
import * as answerRoute from "@/app/api/t/[token]/answers/route";
import * as submitRoute from "@/app/api/t/[token]/submit/route";
import * as sheetRoute from "@/app/api/v1/tests/[code]/recipients/[id]/answers/route";
import * as analysisRoute from "@/app/api/v1/tests/[code]/analysis/route";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { createTrainer, type Trainer } from "../../helpers/fixtures";
import { call } from "../../helpers/http";
import { tokenOf } from "../../helpers/taking";
import { recipientByToken } from "../../helpers/tokens";

/**
 * Multiple-response questions on the taking path (issue 23): `options` saved as a set (mapped
 * through the recipient's shuffled option order), kept over a reload, scored all or nothing,
 * and every wrong body a 422 on the right field with nothing changed. PGlite and PostgreSQL.
 */

let database: TestDatabase;
let trainer: Trainer;
let certificationId: number;
let domainId: number;

const MULTIPLE = {
  prompt: "Which two are prime numbers? (Choose two.)",
  type: "multiple",
  options: ["4", "7", "9", "11", "15"],
  correct: [3, 1],
  explanation: "7 and 11 have no divisors but 1 and themselves.",
};
const SINGLE = { prompt: "How many sides has a triangle?", options: ["2", "3", "4"], correct: 1, explanation: "Three." };

beforeAll(async () => {
  database = await createTestDatabase();
  trainer = await createTrainer(database.db);
  const own = await createCertification(
    database.db,
    trainer.workspaceId,
    createCertificationInput.parse({ name: "Arithmetic", vendor: "School", domains: [{ name: "Numbers", questions: [MULTIPLE, SINGLE] }] }),
  );
  certificationId = own.id;
  domainId = own.domains[0].id;
});
afterAll(() => database.drop());

let counter = 0;
async function newTest(people = 1, settings: Record<string, unknown> = {}) {
  const made = await call(testsRoute.POST, "/api/v1/tests", {
    method: "POST",
    key: trainer.secret,
    body: {
      certification_id: certificationId,
      domains: [domainId],
      questions: 2,
      recipients: Array.from({ length: people }, () => ({ email: `multi${++counter}@example.com`, name: `Multi ${counter}` })),
      send_email: false,
      ...settings,
    },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return { code: made.body.code as string, recipients: made.body.recipients as { id: number; link: string }[] };
}

const start = (token: string) => call(startRoute.POST, `/api/t/${token}/start`, { method: "POST", params: { token } });
const answer = (token: string, body: unknown) => call(answerRoute.PUT, `/api/t/${token}/answers`, { method: "PUT", params: { token }, body });
const submit = (token: string) => call(submitRoute.POST, `/api/t/${token}/submit`, { method: "POST", params: { token } });

/** The recipient's page positions of the question's own option indexes (options are shuffled per recipient). */
async function positionsOf(token: string, questionId: number, indexes: number[]): Promise<number[]> {
  const recipient = await recipientByToken(database.db, token);
  const order = recipient.optionOrders![String(questionId)];
  return indexes.map((index) => order.indexOf(index));
}

async function questionsOf(token: string) {
  const view = (await openTest(database.db, token))!;
  const multiple = view.questions.find((q) => q.type === "multiple")!;
  const single = view.questions.find((q) => q.type === "single")!;
  return { view, multiple, single };
}

const storedAnswer = async (token: string, questionId: number) => {
  const recipient = await recipientByToken(database.db, token);
  const rows = await database.db.select().from(answers).where(eq(answers.recipientId, recipient.id));
  return rows.find((row) => row.questionId === questionId);
};

describe("multiple-response questions: creation and the page", () => {
  it("freezes the type and the right set into the test, and tells the page how many to choose", async () => {
    const { code, recipients } = await newTest();
    const frozen = await database.db.select().from(testQuestions);
    const copy = frozen.find((q) => q.prompt === MULTIPLE.prompt && q.type === "multiple");
    expect(copy).toMatchObject({ type: "multiple", correctIndexes: [1, 3], correctIndex: 1 });
    const token = tokenOf(recipients[0].link);
    const before = (await openTest(database.db, token))!;
    expect(before.test.multipleQuestions).toBe(1);
    expect(code).toBeTruthy();
    expect((await start(token)).status).toBe(200);
    const { multiple, single } = await questionsOf(token);
    expect(multiple).toMatchObject({ type: "multiple", choose: 2 });
    expect(single).toMatchObject({ type: "single", choose: 1 });
  });
});

describe("PUT /api/t/{token}/answers with options", () => {
  it("saves the set in the question's own order (ascending, option_index its first) and gives it back on reload as page positions", async () => {
    const { recipients } = await newTest();
    const token = tokenOf(recipients[0].link);
    await start(token);
    const { multiple } = await questionsOf(token);
    const positions = await positionsOf(token, multiple.id, [3, 1]);
    const saved = await answer(token, { question_id: multiple.id, options: positions });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body).toEqual({ answered: 1, questions: 2 });
    expect(await storedAnswer(token, multiple.id)).toMatchObject({ optionIndexes: [1, 3], optionIndex: 1 });
    const reread = (await openTest(database.db, token))!;
    expect(reread.answers[multiple.id]).toEqual([...positions].sort((a, b) => a - b));

    // The last answer given counts, as for a single question.
    const other = await positionsOf(token, multiple.id, [0, 4]);
    expect((await answer(token, { question_id: multiple.id, options: other })).status).toBe(200);
    expect(await storedAnswer(token, multiple.id)).toMatchObject({ optionIndexes: [0, 4], optionIndex: 0 });
  });

  it("refuses a wrong count, a repeat, an out-of-range position, both or neither field, and the wrong kind: 422 on the field, nothing saved", async () => {
    const { recipients } = await newTest();
    const token = tokenOf(recipients[0].link);
    await start(token);
    const { multiple, single } = await questionsOf(token);
    const fieldOf = (body: { error: { fields: { field: string }[] } }) => body.error.fields.map((f) => f.field);
    const cases: [unknown, string, RegExp][] = [
      [{ question_id: multiple.id, options: [0] }, "options", /exactly 2/],
      [{ question_id: multiple.id, options: [0, 1, 2] }, "options", /exactly 2/],
      [{ question_id: multiple.id, options: [1, 1] }, "options", /twice/],
      [{ question_id: multiple.id, options: [0, 5] }, "options", /No such option/],
      [{ question_id: multiple.id, option: 0 }, "options", /takes 2 options/],
      [{ question_id: multiple.id, option: 0, options: [0, 1] }, "options", /not both/],
      [{ question_id: multiple.id }, "option", /option/],
      [{ question_id: single.id, options: [0, 1] }, "option", /one option/],
    ];
    for (const [body, field, message] of cases) {
      const refused = await answer(token, body);
      expect(refused.status, JSON.stringify(body)).toBe(422);
      expect(fieldOf(refused.body), JSON.stringify(body)).toEqual([field]);
      expect(refused.body.error.fields[0].message, JSON.stringify(body)).toMatch(message);
    }
    const recipient = await recipientByToken(database.db, token);
    expect(await database.db.select().from(answers).where(eq(answers.recipientId, recipient.id))).toEqual([]);
  });
});

describe("scoring: all or nothing", () => {
  async function attempt(indexes: number[]) {
    const { code, recipients } = await newTest();
    const token = tokenOf(recipients[0].link);
    await start(token);
    const { multiple, single } = await questionsOf(token);
    const saved = await answer(token, { question_id: multiple.id, options: await positionsOf(token, multiple.id, indexes) });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    await answer(token, { question_id: single.id, option: (await positionsOf(token, single.id, [1]))[0] });
    const result = await submit(token);
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    return { result: result.body, token, code, recipientId: recipients[0].id, multiple };
  }

  it("counts the exact set right and shows the right set in the review and on the answer sheet", async () => {
    const { result, token, code, recipientId, multiple } = await attempt([1, 3]);
    expect(result).toMatchObject({ correct: 2, questions: 2, percent: 100 });
    const page = (await openTest(database.db, token))!;
    const right = (await positionsOf(token, multiple.id, [1, 3])).sort((a, b) => a - b);
    expect(page.review![multiple.id]).toEqual({ correct: right, explanation: MULTIPLE.explanation });
    expect(page.answers[multiple.id]).toEqual(right);

    const id = String(recipientId);
    const sheet = await call(sheetRoute.GET, `/api/v1/tests/${code}/recipients/${id}/answers`, { key: trainer.secret, params: { code, id } });
    expect(sheet.status).toBe(200);
    const item = sheet.body.answers.find((a: { question_id: number }) => a.question_id === multiple.id);
    expect(item).toMatchObject({ type: "multiple", choose: 2, chosen: [1, 3], correct_option: [1, 3], correct: true });

    // The analysis counts each option of the set once, marks the right set, and scores the exact set.
    const analysis = await call(analysisRoute.GET, `/api/v1/tests/${code}/analysis`, { key: trainer.secret, params: { code } });
    expect(analysis.status).toBe(200);
    const question = analysis.body.questions.find((q: { question_id: number }) => q.question_id === multiple.id);
    expect(question).toMatchObject({ type: "multiple", choose: 2, answered: 1, correct: 1, percent_correct: 100 });
    expect(question.options.map((o: { chosen: number; correct: boolean }) => [o.chosen, o.correct])).toEqual([
      [0, false],
      [1, true],
      [0, false],
      [1, true],
      [0, false],
    ]);
  });

  it("counts a set with one right and one wrong option wrong (no partial credit)", async () => {
    const { result } = await attempt([1, 2]);
    expect(result).toMatchObject({ correct: 1, questions: 2, percent: 50 });
  });
});
