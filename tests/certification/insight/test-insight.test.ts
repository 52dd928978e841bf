import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { rowsOf } from "@/db";
import { answers, recipients } from "@/db/schema";
import { createCertification } from "@/lib/certification/catalog/catalog";
import { createCertificationInput } from "@/lib/certification/catalog/schemas";
import { seal } from "@/lib/platform/security/sealing";
import { answerSheetView, testAnalysisView } from "@/lib/certification/insight/schemas";
import { openTest, saveAnswer, startTest, submitTest } from "@/lib/certification/taking/taking";
import { testView } from "@/lib/certification/tests/schemas";
import { setPlan } from "@/lib/platform/workspaces";
import * as testsRoute from "@/app/api/v1/tests/route";
import * as testRoute from "@/app/api/v1/tests/[code]/route";
import * as answersRoute from "@/app/api/v1/tests/[code]/recipients/[id]/answers/route";
import * as analysisRoute from "@/app/api/v1/tests/[code]/analysis/route";
import * as openapiRoute from "@/app/api/openapi.json/route";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { createTrainer, type Trainer } from "../../helpers/fixtures";
import { call } from "../../helpers/http";

/**
 * The trainer's follow-up: one recipient's answer sheet, the question analysis and the
 * partial progress (`answered`) of each recipient. The analysis is checked on a crafted
 * test whose every figure is worked out by hand below, then on 1,000 recipients × 20
 * questions against a reference computed here answer by answer.
 */

// A call without a key is looked up as the dashboard's session: nobody is signed in here.
vi.mock("@/lib/platform/auth/session", () => import("../../helpers/session"));

let database: TestDatabase;
let trainer: Trainer;
let stranger: Trainer;

beforeAll(async () => {
  database = await createTestDatabase();
  trainer = await createTrainer(database.db);
  stranger = await createTrainer(database.db);
  await setPlan(database.db, trainer.workspaceId, "pro");
});
afterAll(() => database.drop());

const tokenOf = (link: string) => link.split("/t/")[1];
const getSheet = (code: string, id: number | string, key = trainer.secret) =>
  call(answersRoute.GET, `/api/v1/tests/${code}/recipients/${id}/answers`, { key, params: { code, id: String(id) } });
const getAnalysis = (code: string, key = trainer.secret) => call(analysisRoute.GET, `/api/v1/tests/${code}/analysis`, { key, params: { code } });
const getTest = (code: string, key = trainer.secret) => call(testRoute.GET, `/api/v1/tests/${code}`, { key, params: { code } });

/** A certification of the trainer's own whose questions' right options are known. */
async function ownCertification(name: string, domainSpecs: { name: string; questions: { prompt: string; correct: number }[] }[]) {
  return createCertification(
    database.db,
    trainer.workspaceId,
    createCertificationInput.parse({
      name,
      vendor: "Acme",
      domains: domainSpecs.map((domain) => ({
        name: domain.name,
        questions: domain.questions.map((q) => ({ prompt: q.prompt, options: ["A", "B", "C", "D"], correct: q.correct, explanation: `Because ${q.prompt}` })),
      })),
    }),
  );
}

/** Creates a test of every question of `certification` for `people` (no e-mail) through the API. */
async function createTestOf(certification: Awaited<ReturnType<typeof ownCertification>>, people: string[]) {
  const created = await call(testsRoute.POST, "/api/v1/tests", {
    method: "POST",
    key: trainer.secret,
    body: {
      certification_id: certification.id,
      questions_per_domain: certification.domains.map((domain) => ({ domain_id: domain.id, questions: domain.questions })),
      recipients: people.map((email) => ({ email })),
      send_email: false,
      // The crafted answers name options in each question's own order.
      shuffle_options: false,
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return testView.parse(created.body);
}

/** Answers `choices` (prompt → option) as the recipient with this token; submits when told. */
async function take(token: string, choices: Record<string, number>, submit: boolean) {
  await startTest(database.db, token);
  const view = (await openTest(database.db, token))!;
  for (const question of view.questions) {
    if (question.prompt in choices) await saveAnswer(database.db, token, { question_id: question.id, option: choices[question.prompt] });
  }
  if (submit) await submitTest(database.db, token);
  return view;
}

/**
 * Point-biserial correlation written out as the textbook defines it, independently of the
 * implementation (which asks PostgreSQL's corr()): r = (M1 − M0) / s · √(p·q), with M1 and M0
 * the mean totals of those right and wrong on the item, s the standard deviation of the
 * totals over everyone (n in the denominator), p the share right and q = 1 − p.
 */
function pointBiserial(item: number[], totals: number[]): number | null {
  const n = totals.length;
  const mean = totals.reduce((a, b) => a + b, 0) / n;
  const s = Math.sqrt(totals.reduce((sum, y) => sum + (y - mean) ** 2, 0) / n);
  const right = totals.filter((_, i) => item[i] === 1);
  const wrong = totals.filter((_, i) => item[i] === 0);
  if (n < 2 || s === 0 || right.length === 0 || wrong.length === 0) return null;
  const m1 = right.reduce((a, b) => a + b, 0) / right.length;
  const m0 = wrong.reduce((a, b) => a + b, 0) / wrong.length;
  const p = right.length / n;
  return ((m1 - m0) / s) * Math.sqrt(p * (1 - p));
}

// The crafted test: four questions of four options (A=0 … D=3), two per domain.
//   Networking: Q1 (right: A), Q2 (right: B)     Security: Q3 (right: C), Q4 (right: D)
// Five recipients complete it; a sixth is half-way (not counted); a seventh never opened it.
//
//          Q1  Q2  Q3  Q4   right: Q1 Q2 Q3 Q4   total
//   r1     A   B   C   A           1  1  1  0     3
//   r2     A   B   A   D           1  1  0  1     3
//   r3     A   C   A   B           1  0  0  0     1
//   r4     B   C   A   D           0  0  0  1     1
//   r5     A   C   B   D           1  0  0  1     2
//   r6     B   B   -   -   (started, not counted)
//
// Totals 3, 3, 1, 1, 2: mean 2, variance (1+1+1+1+0)/5 = 0.8, s = √0.8.
//   Q1: p = 4/5, M1 = (3+3+1+2)/4 = 2.25, M0 = 1      → r = 1.25/√0.8 · √0.16 = 0.559
//   Q2: p = 2/5, M1 = 3, M0 = (1+1+2)/3 = 4/3          → r = (5/3)/√0.8 · √0.24 = 0.913
//   Q3: p = 1/5, M1 = 3, M0 = (3+1+1+2)/4 = 1.75       → r = 1.25/√0.8 · √0.16 = 0.559
//   Q4: p = 3/5, M1 = (3+1+2)/3 = 2, M0 = (3+1)/2 = 2  → r = 0
// Flags: Q3 is hard (20% < 30%); Q4 discriminates poorly (0 < 0.2). Distractors: Q2's C (3)
// was chosen more than B (2); never chosen: Q2's A and D, Q3's D, Q4's C.
// Domains: Networking (4+2)/10 = 60%, Security (1+3)/10 = 40%; overall 10/20 = 50%.
const crafted = {
  r1: { Q1: 0, Q2: 1, Q3: 2, Q4: 0 },
  r2: { Q1: 0, Q2: 1, Q3: 0, Q4: 3 },
  r3: { Q1: 0, Q2: 2, Q3: 0, Q4: 1 },
  r4: { Q1: 1, Q2: 2, Q3: 0, Q4: 3 },
  r5: { Q1: 0, Q2: 2, Q3: 1, Q4: 3 },
};
const rightOption = { Q1: 0, Q2: 1, Q3: 2, Q4: 3 } as const;
type Prompt = keyof typeof rightOption;

describe("the crafted test", () => {
  let code: string;
  let people: Record<string, { id: number; token: string }>;
  let otherTestRecipient: number;

  beforeAll(async () => {
    const certification = await ownCertification("Crafted", [
      { name: "Networking", questions: [{ prompt: "Q1", correct: 0 }, { prompt: "Q2", correct: 1 }] },
      { name: "Security", questions: [{ prompt: "Q3", correct: 2 }, { prompt: "Q4", correct: 3 }] },
    ]);
    const test = await createTestOf(certification, ["r1", "r2", "r3", "r4", "r5", "r6", "r7"].map((name) => `${name}@example.com`));
    code = test.code;
    people = Object.fromEntries(test.recipients.map((r) => [r.email.split("@")[0], { id: r.id, token: tokenOf(r.link) }]));
    for (const [name, choices] of Object.entries(crafted)) await take(people[name].token, choices, true);
    await take(people.r6.token, { Q1: 1, Q2: 1 }, false);
    const other = await createTestOf(certification, ["elsewhere@example.com"]);
    otherTestRecipient = other.recipients[0].id;
  });

  it("the API's definitions match the hand-worked formula on this data", () => {
    const names = Object.keys(crafted) as (keyof typeof crafted)[];
    const item = (q: Prompt) => names.map((name) => (crafted[name][q] === rightOption[q] ? 1 : 0));
    const totals = names.map((name) => (Object.keys(rightOption) as Prompt[]).filter((q) => crafted[name][q] === rightOption[q]).length);
    expect(totals).toEqual([3, 3, 1, 1, 2]);
    expect(pointBiserial(item("Q1"), totals)).toBeCloseTo(1.25 / Math.sqrt(0.8) * Math.sqrt(0.16), 10);
    expect(pointBiserial(item("Q2"), totals)).toBeCloseTo((5 / 3 / Math.sqrt(0.8)) * Math.sqrt(0.24), 10);
    expect(pointBiserial(item("Q4"), totals)).toBe(0);
  });

  it("analyses every question over the completed recipients, exactly", async () => {
    const result = await getAnalysis(code);
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    const analysis = testAnalysisView.parse(result.body);
    expect(analysis).toMatchObject({
      test: code,
      completed: 5,
      in_progress: 1,
      average_percent: 50,
      thresholds: { hard_below_percent: 30, low_discrimination_below: 0.2 },
    });
    expect(analysis.domains.map(({ name, questions, average_percent }) => ({ name, questions, average_percent }))).toEqual([
      { name: "Networking", questions: 2, average_percent: 60 },
      { name: "Security", questions: 2, average_percent: 40 },
    ]);
    expect(analysis.questions.map((q) => q.position)).toEqual([1, 2, 3, 4]);
    const byPrompt = Object.fromEntries(analysis.questions.map((q) => [q.prompt, q]));
    const figures = (q: Prompt) => {
      const { answered, correct, percent_correct, discrimination, flags, weak, domain } = byPrompt[q];
      return { answered, correct, percent_correct, discrimination, flags, weak, domain: domain.name };
    };
    // r6's two answers (in progress) are not counted: 5 answered, not 6.
    expect(figures("Q1")).toEqual({ answered: 5, correct: 4, percent_correct: 80, discrimination: 0.559, flags: [], weak: false, domain: "Networking" });
    expect(figures("Q2")).toEqual({ answered: 5, correct: 2, percent_correct: 40, discrimination: 0.913, flags: [], weak: false, domain: "Networking" });
    expect(figures("Q3")).toEqual({ answered: 5, correct: 1, percent_correct: 20, discrimination: 0.559, flags: ["hard"], weak: true, domain: "Security" });
    expect(figures("Q4")).toEqual({ answered: 5, correct: 3, percent_correct: 60, discrimination: 0, flags: ["low_discrimination"], weak: true, domain: "Security" });

    const options = (q: Prompt) => byPrompt[q].options.map(({ text, correct, chosen, percent, flag }) => [text, correct, chosen, percent, flag]);
    expect(options("Q1")).toEqual([
      ["A", true, 4, 80, null],
      ["B", false, 1, 20, null],
      ["C", false, 0, 0, "never_chosen"],
      ["D", false, 0, 0, "never_chosen"],
    ]);
    expect(options("Q2")).toEqual([
      ["A", false, 0, 0, "never_chosen"],
      ["B", true, 2, 40, null],
      ["C", false, 3, 60, "chosen_over_correct"],
      ["D", false, 0, 0, "never_chosen"],
    ]);
    expect(options("Q3")).toEqual([
      ["A", false, 3, 60, "chosen_over_correct"],
      ["B", false, 1, 20, null],
      ["C", true, 1, 20, null],
      ["D", false, 0, 0, "never_chosen"],
    ]);
    expect(options("Q4")).toEqual([
      ["A", false, 1, 20, null],
      ["B", false, 1, 20, null],
      ["C", false, 0, 0, "never_chosen"],
      ["D", true, 3, 60, null],
    ]);
  });

  it("shows each recipient's progress in GET /tests/{code} (additive `answered`)", async () => {
    const result = await getTest(code);
    expect(result.status).toBe(200);
    const byName = Object.fromEntries(testView.parse(result.body).recipients.map((r) => [r.email.split("@")[0], r]));
    expect(byName.r1).toMatchObject({ status: "completed", answered: 4 });
    expect(byName.r6).toMatchObject({ status: "started", answered: 2 });
    expect(byName.r7).toMatchObject({ status: "sent", answered: 0 });
    // The specification's fields stay as they were.
    expect(byName.r1.result).toMatchObject({ percent: 75, correct: 3, questions: 4 });
  });

  it("gives a completed recipient's answer sheet in their own order", async () => {
    const view = (await openTest(database.db, people.r3.token))!;
    const result = await getSheet(code, people.r3.id);
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    const sheet = answerSheetView.parse(result.body);
    expect(sheet).toMatchObject({
      test: code,
      recipient: { id: people.r3.id, email: "r3@example.com", status: "completed", completed_at: expect.any(String) },
      questions: 4,
      answered: 4,
      correct: 1,
    });
    expect(sheet.answers.map((a) => a.question_id)).toEqual(view.questions.map((q) => q.id));
    expect(sheet.answers.map((a) => a.position)).toEqual([1, 2, 3, 4]);
    for (const item of sheet.answers) {
      const prompt = item.prompt as Prompt;
      expect(item).toMatchObject({
        options: ["A", "B", "C", "D"],
        chosen: crafted.r3[prompt],
        correct_option: rightOption[prompt],
        correct: crafted.r3[prompt] === rightOption[prompt],
        explanation: `Because ${prompt}`,
        domain: { name: prompt === "Q1" || prompt === "Q2" ? "Networking" : "Security" },
      });
      expect(Date.parse(item.answered_at!)).toBeLessThanOrEqual(Date.parse(sheet.recipient.completed_at!));
    }
  });

  it("gives a started recipient's partial sheet (null where unanswered) and an unopened one's empty sheet", async () => {
    const partial = answerSheetView.parse((await getSheet(code, people.r6.id)).body);
    expect(partial).toMatchObject({ answered: 2, correct: 1, questions: 4, recipient: { status: "started", completed_at: null } });
    const byPrompt = Object.fromEntries(partial.answers.map((a) => [a.prompt, a]));
    expect(byPrompt.Q1).toMatchObject({ chosen: 1, correct: false, answered_at: expect.any(String) });
    expect(byPrompt.Q2).toMatchObject({ chosen: 1, correct: true });
    expect(byPrompt.Q3).toMatchObject({ chosen: null, correct: false, answered_at: null, correct_option: 2 });
    const unopened = answerSheetView.parse((await getSheet(code, people.r7.id)).body);
    expect(unopened).toMatchObject({ answered: 0, correct: 0, questions: 4, recipient: { status: "sent", started_at: null } });
    expect(unopened.answers.every((a) => a.chosen === null && a.answered_at === null)).toBe(true);
  });

  it("the last answer given is the one on the sheet", async () => {
    const view = (await openTest(database.db, people.r6.token))!;
    const q1 = view.questions.find((q) => q.prompt === "Q1")!;
    await saveAnswer(database.db, people.r6.token, { question_id: q1.id, option: 0 });
    const sheet = answerSheetView.parse((await getSheet(code, people.r6.id)).body);
    expect(sheet.answers.find((a) => a.prompt === "Q1")).toMatchObject({ chosen: 0, correct: true });
    expect(sheet).toMatchObject({ answered: 2, correct: 2 });
  });

  it("answers 404 for a recipient of another test, a missing or malformed id, and another workspace's test", async () => {
    const elsewhere = await getSheet(code, otherTestRecipient);
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.error).toMatchObject({ code: "not_found", message: "Recipient not found." });
    expect((await getSheet(code, 2147483647)).body.error.message).toBe("Recipient not found.");
    for (const id of ["abc", "0", "-1", "1.5", "99999999999"]) expect((await getSheet(code, id)).status, id).toBe(404);
    // The stranger's key names neither the test nor its recipients; same message as a missing test.
    const foreign = await getSheet(code, people.r1.id, stranger.secret);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.message).toBe("Test not found.");
    expect((await getSheet("ZZZZZZZZ", people.r1.id)).body.error.message).toBe("Test not found.");
    const foreignAnalysis = await getAnalysis(code, stranger.secret);
    expect(foreignAnalysis.status).toBe(404);
    expect(foreignAnalysis.body.error.message).toBe("Test not found.");
    expect((await getAnalysis("ZZZZZZZZ")).body.error.message).toBe("Test not found.");
    expect((await getAnalysis("not a code!")).status).toBe(404);
  });

  it("needs a key (401) and, like the other test reads, cert:read (a ctf:read key gets 403)", async () => {
    const nobody = await call(analysisRoute.GET, `/api/v1/tests/${code}/analysis`, { params: { code } });
    expect(nobody.status).toBe(401);
    expect((await call(answersRoute.GET, `/api/v1/tests/${code}/recipients/${people.r1.id}/answers`, { params: { code, id: String(people.r1.id) } })).status).toBe(401);
    const competitionOnly = await createTrainer(database.db, { email: trainer.email, scopes: ["ctf:read"] });
    expect((await getAnalysis(code, competitionOnly.secret)).status).toBe(403);
    expect((await getSheet(code, people.r1.id, competitionOnly.secret)).status).toBe(403);
    expect((await getTest(code, competitionOnly.secret)).status).toBe(403);
    const reader = await createTrainer(database.db, { email: trainer.email, scopes: ["cert:read"] });
    expect((await getAnalysis(code, reader.secret)).status).toBe(200);
    expect((await getSheet(code, people.r1.id, reader.secret)).status).toBe(200);
    expect((await getTest(code, reader.secret)).status).toBe(200);
  });

  it("answers 20 concurrent reads of each route, while answers are being saved, without an error", async () => {
    const view = (await openTest(database.db, people.r6.token))!;
    const results = await Promise.all([
      ...Array.from({ length: 20 }, () => getAnalysis(code)),
      ...Array.from({ length: 20 }, (_, i) => getSheet(code, i % 2 ? people.r6.id : people.r1.id)),
      ...Array.from({ length: 20 }, () => getTest(code)),
      ...view.questions.map((q) => saveAnswer(database.db, people.r6.token, { question_id: q.id, option: 3 }).then(() => ({ status: 200, body: {} }))),
    ]);
    expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
    // Still the five completed recipients: r6 answering more changes nothing counted.
    expect(testAnalysisView.parse(results[0].body).completed).toBe(5);
  });
});

describe("figures that cannot be computed are null, never an error", () => {
  it("no completed recipient: nulls, zero counts, no flags", async () => {
    const certification = await ownCertification("Empty", [{ name: "Only", questions: [{ prompt: "E1", correct: 0 }, { prompt: "E2", correct: 1 }] }]);
    const test = await createTestOf(certification, ["e1@example.com"]);
    const analysis = testAnalysisView.parse((await getAnalysis(test.code)).body);
    expect(analysis).toMatchObject({ completed: 0, in_progress: 0, average_percent: null, domains: [{ name: "Only", questions: 2, average_percent: null }] });
    for (const q of analysis.questions) {
      expect(q).toMatchObject({ answered: 0, correct: 0, percent_correct: null, discrimination: null, flags: [], weak: false });
      expect(q.options.every((o) => o.chosen === 0 && o.percent === null && o.flag === null)).toBe(true);
    }
  });

  it("one completed recipient (n < 2) and a question everyone got right (no variance): discrimination null", async () => {
    const certification = await ownCertification("Small", [{ name: "Only", questions: [{ prompt: "S1", correct: 0 }, { prompt: "S2", correct: 1 }] }]);
    const test = await createTestOf(certification, ["s1@example.com", "s2@example.com"]);
    const [one, two] = test.recipients.map((r) => tokenOf(r.link));
    await take(one, { S1: 0, S2: 0 }, true);
    let analysis = testAnalysisView.parse((await getAnalysis(test.code)).body);
    expect(analysis.completed).toBe(1);
    expect(analysis.questions.map((q) => q.discrimination)).toEqual([null, null]);
    expect(analysis.questions.map((q) => q.percent_correct).sort()).toEqual([0, 100]);

    await take(two, { S1: 0, S2: 1 }, true);
    analysis = testAnalysisView.parse((await getAnalysis(test.code)).body);
    const byPrompt = Object.fromEntries(analysis.questions.map((q) => [q.prompt, q]));
    // S1: both right, no variance on the item. S2: right for the one with the higher total.
    expect(byPrompt.S1).toMatchObject({ percent_correct: 100, discrimination: null, flags: [] });
    expect(byPrompt.S2).toMatchObject({ percent_correct: 50, discrimination: 1 });
    expect(pointBiserial([0, 1], [1, 2])).toBe(1);
  });
});

describe("1,000 recipients × 20 questions", () => {
  it("matches a reference computed answer by answer, aggregated by the database", async () => {
    const prompts = Array.from({ length: 20 }, (_, i) => `L${i + 1}`);
    const certification = await ownCertification("Large", [
      { name: "First", questions: prompts.slice(0, 10).map((prompt, i) => ({ prompt, correct: i % 4 })) },
      { name: "Second", questions: prompts.slice(10).map((prompt, i) => ({ prompt, correct: (i + 1) % 4 })) },
    ]);
    const test = await createTestOf(certification, ["first@example.com"]);
    const testId = rowsOf<{ id: number }>(await database.db.execute(sql`select id from tests where code = ${test.code}`))[0].id;
    // 999 more recipients and their answers written in bulk (deterministic pseudo-random):
    // each recipient has an ability of 20–89%: that share of their answers is right, the
    // rest a hashed option. Nine in ten complete; every 10th is in progress, half answered.
    // (Tokens are stored hashed and sealed; these links are never opened, so one sealed copy serves.)
    await database.db.execute(sql`
      insert into ${recipients} (test_id, workspace_id, email, token_hash, token_sealed, status, question_order, started_at, completed_at)
      select ${testId}, ${trainer.workspaceId}, 'bulk' || k || '@example.com', encode(sha256(convert_to('bulk-token-' || ${testId} || '-' || k, 'UTF8')), 'hex'),
             ${seal("recipients.token", "bulk-token")},
             case when k % 10 = 0 then 'started' else 'completed' end,
             (select jsonb_agg(id order by position) from test_questions where test_id = ${testId}), now(),
             case when k % 10 = 0 then null else now() end
      from generate_series(1, 999) as k`);
    await database.db.execute(sql`
      insert into ${answers} (recipient_id, question_id, option_index)
      select r.id, q.id,
             case when abs(hashtext(r.id || ':' || q.id)) % 100 < 20 + (r.id * 37) % 70 then q.correct_index
                  else abs(hashtext(q.id || ':' || r.id)) % 4 end
      from ${recipients} r join test_questions q on q.test_id = r.test_id
      where r.test_id = ${testId} and r.email like 'bulk%' and (r.status = 'completed' or q.position % 2 = 0)`);

    // The figure for docs/decisions.md: the fastest of three calls through the route.
    const timings: number[] = [];
    let result = await getAnalysis(test.code);
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      result = await getAnalysis(test.code);
      timings.push(performance.now() - started);
    }
    expect(result.status).toBe(200);
    const analysis = testAnalysisView.parse(result.body);
    console.info(`GET /tests/{code}/analysis, 1,000 recipients × 20 questions: ${Math.min(...timings).toFixed(0)} ms (fastest of 3)`);

    // The reference: every answer of the completed recipients read here, row by row.
    const rows = rowsOf<{ recipient_id: number; question_id: number; option_index: number; correct_index: number }>(
      await database.db.execute(sql`
        select a.recipient_id, a.question_id, a.option_index, q.correct_index
        from answers a join recipients r on r.id = a.recipient_id join test_questions q on q.id = a.question_id
        where r.test_id = ${testId} and r.status = 'completed'`),
    );
    const completedIds = [...new Set(rows.map((row) => row.recipient_id))].sort((a, b) => a - b);
    expect(analysis.completed).toBe(completedIds.length);
    expect(analysis.completed).toBe(900);
    // Every 10th of the 999 (10, 20 … 990) is in progress; the API-created recipient never opened it.
    expect(analysis.in_progress).toBe(99);
    const totals = new Map<number, number>(completedIds.map((id) => [id, 0]));
    for (const row of rows) if (row.option_index === row.correct_index) totals.set(row.recipient_id, totals.get(row.recipient_id)! + 1);
    for (const question of analysis.questions) {
      const mine = rows.filter((row) => row.question_id === question.question_id);
      const item = completedIds.map((id) => {
        const answer = mine.find((row) => row.recipient_id === id);
        return answer && answer.option_index === answer.correct_index ? 1 : 0;
      });
      const right = item.reduce((a: number, b) => a + b, 0);
      expect(question.answered).toBe(mine.length);
      expect(question.correct).toBe(right);
      expect(question.percent_correct).toBe(Math.round((right * 1000) / completedIds.length) / 10);
      const expected = pointBiserial(item, completedIds.map((id) => totals.get(id)!));
      if (expected === null) expect(question.discrimination).toBeNull();
      else expect(question.discrimination).toBeCloseTo(expected, 3);
      for (const option of question.options) expect(option.chosen).toBe(mine.filter((row) => row.option_index === option.index).length);
    }
    // Realistic data: every question discriminates (abler recipients are right more often).
    expect(analysis.questions.every((q) => q.discrimination !== null && q.discrimination > 0.2)).toBe(true);
    const rightAnswers = [...totals.values()].reduce((a, b) => a + b, 0);
    // Halves up, on the counts (66.15 % is 66.2, whatever 0.6615 × 1000 comes to in floating point).
    expect(analysis.average_percent).toBe(Math.round((rightAnswers * 1000) / (completedIds.length * 20)) / 10);
  });
});

describe("the OpenAPI document", () => {
  it("describes both routes, their shapes and each recipient's `answered`", async () => {
    const doc = await openapiRoute.GET().json();
    const sheet = doc.paths["/api/v1/tests/{code}/recipients/{id}/answers"].get;
    const analysis = doc.paths["/api/v1/tests/{code}/analysis"].get;
    for (const operation of [sheet, analysis]) {
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(["200", "401", "404", "429"]));
      expect(operation.parameters.map((p: { name: string }) => p.name)).toContain("code");
    }
    expect(sheet.operationId).toBe("tests.recipients.answers");
    expect(analysis.operationId).toBe("tests.analysis");
    const schemas = doc.components.schemas;
    expect(Object.keys(schemas.AnswerSheetItem.properties)).toEqual(
      expect.arrayContaining(["position", "domain", "prompt", "options", "chosen", "correct_option", "correct", "answered_at"]),
    );
    expect(Object.keys(schemas.QuestionAnalysis.properties)).toEqual(expect.arrayContaining(["answered", "percent_correct", "discrimination", "flags", "options"]));
    expect(schemas.TestAnalysis.properties).toHaveProperty("thresholds");
    expect(schemas.Recipient.properties.answered).toMatchObject({ type: "integer" });
    expect(schemas.Recipient.required).toContain("answered");
  });
});
