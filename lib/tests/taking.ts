import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { answers, recipients, testDomains, testQuestions, tests, type Recipient, type RecipientResult } from "@/db/schema";
import { AppError, conflict, invalidFields, notFound } from "@/lib/errors";
import { publishEvent } from "@/lib/events/publish";
import { isTokenShaped } from "./links";
import type { AnswerInput, AnswerSaved } from "./schemas";

/** What the recipient's page shows: questions in their own order, answers given so far. */
export type TakingView = {
  status: Recipient["status"];
  name: string;
  email: string;
  certification: string;
  questions: { id: number; domain: string; prompt: string; options: string[] }[];
  answers: Record<number, number>;
  result: RecipientResult | null;
  /** After completion: the correct option and explanation of each question. */
  review: Record<number, { correct: number; explanation: string }> | null;
};

async function findByToken(db: Db, token: string, lock = false) {
  if (!isTokenShaped(token)) return undefined;
  const query = db.select().from(recipients).where(eq(recipients.token, token));
  const [recipient] = lock ? await query.for("update") : await query;
  return recipient;
}

/**
 * The reads of the recipient's page, prepared once per database (the page is the busiest
 * one: every recipient opens it, and reloads it): Drizzle builds each query once.
 */
function buildTakingQueries(db: Db) {
  const testId = sql.placeholder("testId");
  return {
    recipient: db.select().from(recipients).where(eq(recipients.token, sql.placeholder("token"))).prepare("taking_recipient"),
    test: db.select({ certificationName: tests.certificationName }).from(tests).where(eq(tests.id, testId)).prepare("taking_test"),
    questions: db
      .select({
        id: testQuestions.id,
        domainId: testQuestions.domainId,
        prompt: testQuestions.prompt,
        options: testQuestions.options,
        correctIndex: testQuestions.correctIndex,
        explanation: testQuestions.explanation,
      })
      .from(testQuestions)
      .where(eq(testQuestions.testId, testId))
      .prepare("taking_questions"),
    domains: db.select({ domainId: testDomains.domainId, name: testDomains.name }).from(testDomains).where(eq(testDomains.testId, testId)).prepare("taking_domains"),
    answers: db
      .select({ questionId: answers.questionId, optionIndex: answers.optionIndex })
      .from(answers)
      .where(eq(answers.recipientId, sql.placeholder("recipientId")))
      .prepare("taking_answers"),
  };
}

const takingQueries = new WeakMap<Db, ReturnType<typeof buildTakingQueries>>();

/** Opens the personal link: the first open marks the recipient `started`. Unknown → undefined. */
export async function openTest(db: Db, token: string): Promise<TakingView | undefined> {
  if (!isTokenShaped(token)) return undefined;
  let queries = takingQueries.get(db);
  if (!queries) takingQueries.set(db, (queries = buildTakingQueries(db)));
  let [recipient] = await queries.recipient.execute({ token });
  if (!recipient) return undefined;
  if (recipient.status === "sent") {
    const now = new Date();
    const [started] = await db
      .update(recipients)
      .set({ status: "started", startedAt: now, lastActivityAt: now })
      .where(and(eq(recipients.id, recipient.id), eq(recipients.status, "sent")))
      .returning();
    recipient = started ?? (await queries.recipient.execute({ token }))[0];
  }
  const [[test], questionRows, domainRows, given] = await Promise.all([
    queries.test.execute({ testId: recipient.testId }),
    queries.questions.execute({ testId: recipient.testId }),
    queries.domains.execute({ testId: recipient.testId }),
    queries.answers.execute({ recipientId: recipient.id }),
  ]);
  const domainName = new Map(domainRows.map((d) => [d.domainId, d.name]));
  const byId = new Map(questionRows.map((q) => [q.id, q]));
  const ordered = recipient.questionOrder.map((id) => byId.get(id)).filter((q) => q !== undefined);
  const completed = recipient.status === "completed";
  return {
    status: recipient.status,
    name: recipient.name,
    email: recipient.email,
    certification: test.certificationName,
    questions: ordered.map((q) => ({ id: q.id, domain: domainName.get(q.domainId) ?? "", prompt: q.prompt, options: q.options })),
    answers: Object.fromEntries(given.map((a) => [a.questionId, a.optionIndex])),
    result: completed ? recipient.result : null,
    review: completed ? Object.fromEntries(ordered.map((q) => [q.id, { correct: q.correctIndex, explanation: q.explanation }])) : null,
  };
}

/** Saves one answer as it is given (the last one given for a question counts). */
export async function saveAnswer(db: Db, token: string, parsed: AnswerInput): Promise<AnswerSaved> {
  const recipient = await findByToken(db, token);
  if (!recipient) throw notFound("Test");
  if (recipient.status === "completed") throw conflict("This test has been submitted; answers can no longer change.");
  const [question] = await db
    .select({ id: testQuestions.id, options: testQuestions.options })
    .from(testQuestions)
    .where(and(eq(testQuestions.id, parsed.question_id), eq(testQuestions.testId, recipient.testId)));
  if (!question) throw invalidFields([{ field: "question_id", message: "Not a question of this test." }]);
  if (parsed.option >= question.options.length) throw invalidFields([{ field: "option", message: "No such option." }]);
  const now = new Date();
  await db.transaction(async (tx) => {
    await tx
      .insert(answers)
      .values({ recipientId: recipient.id, questionId: question.id, optionIndex: parsed.option, answeredAt: now })
      .onConflictDoUpdate({ target: [answers.recipientId, answers.questionId], set: { optionIndex: parsed.option, answeredAt: now } });
    await tx
      .update(recipients)
      .set({ lastActivityAt: now, ...(recipient.status === "sent" ? { status: "started" as const, startedAt: now } : {}) })
      .where(eq(recipients.id, recipient.id));
  });
  const [{ answered }] = await db
    .select({ answered: sql<number>`count(*)::int` })
    .from(answers)
    .where(eq(answers.recipientId, recipient.id));
  return { answered, questions: recipient.questionOrder.length };
}

const round1 = (value: number) => Math.round(value * 10) / 10;

/**
 * Submits the test: every question must be answered. The result is computed and
 * `test.completed` published in the same transaction. Submitting again changes nothing
 * and publishes nothing (the recipient row is locked, so two submits at once are one).
 */
export async function submitTest(db: Db, token: string): Promise<RecipientResult> {
  if (!(await findByToken(db, token))) throw notFound("Test");
  return db.transaction(async (tx) => {
    const recipient = (await findByToken(tx, token, true))!;
    if (recipient.status === "completed" && recipient.result) return recipient.result;
    const [test] = await tx.select().from(tests).where(eq(tests.id, recipient.testId));
    const [questionRows, domainRows, given] = await Promise.all([
      tx.select().from(testQuestions).where(eq(testQuestions.testId, test.id)),
      tx.select().from(testDomains).where(eq(testDomains.testId, test.id)).orderBy(asc(testDomains.position)),
      tx.select().from(answers).where(eq(answers.recipientId, recipient.id)),
    ]);
    const chosen = new Map(given.map((a) => [a.questionId, a.optionIndex]));
    const unanswered = recipient.questionOrder.filter((id) => !chosen.has(id));
    if (unanswered.length) {
      throw new AppError("validation_failed", `${unanswered.length} question(s) are still unanswered.`, {
        fields: unanswered.map((id) => ({ field: `answers.${recipient.questionOrder.indexOf(id) + 1}`, message: "Not answered yet." })),
      });
    }
    const perDomain = domainRows.map((domain) => {
      const inDomain = questionRows.filter((q) => q.domainId === domain.domainId);
      const correct = inDomain.filter((q) => chosen.get(q.id) === q.correctIndex).length;
      return { id: domain.domainId, name: domain.name, correct, questions: inDomain.length, percent: inDomain.length ? round1((correct / inDomain.length) * 100) : 0 };
    });
    const correct = perDomain.reduce((sum, d) => sum + d.correct, 0);
    const result: RecipientResult = {
      percent: round1((correct / questionRows.length) * 100),
      correct,
      questions: questionRows.length,
      domains: perDomain,
    };
    const now = new Date();
    await tx
      .update(recipients)
      .set({ status: "completed", completedAt: now, lastActivityAt: now, result, percent: result.percent, startedAt: recipient.startedAt ?? now })
      .where(eq(recipients.id, recipient.id));
    await publishEvent(tx, test.workspaceId, "test.completed", {
      test: test.code,
      score: result.percent,
      correct: result.correct,
      questions: result.questions,
      recipient: { email: recipient.email, name: recipient.name },
      domains: perDomain.map(({ id, name, percent, correct: c, questions: q }) => ({ id, name, percent, correct: c, questions: q })),
    });
    return result;
  });
}
