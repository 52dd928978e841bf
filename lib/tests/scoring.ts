import { asc, eq } from "drizzle-orm";
import type { Db } from "@/db";
import { answers, recipients, testDomains, testQuestions, tests, type Recipient, type RecipientResult } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { publishEvent } from "@/lib/events/publish";
import { scheduleStep } from "@/lib/outbox/steps";
import type { ResultView } from "./schemas";
import { passedFor } from "./settings";

const round1 = (value: number) => Math.round(value * 10) / 10;

/**
 * Completes an attempt in the caller's transaction, which holds the recipient's row lock:
 * scores the answers against each question's own correct option, decides `passed` against
 * the pass mark, marks the recipient `completed` at `at`, publishes `test.completed` and,
 * with send_result, schedules the result e-mail. With `allowUnanswered` (the deadline has
 * come) unanswered questions count as wrong; otherwise they are a 422 naming them.
 */
export async function completeAttempt(tx: Db, recipient: Recipient, options: { allowUnanswered: boolean; at: Date }): Promise<ResultView> {
  const [[test], questionRows, domainRows, given] = await Promise.all([
    tx.select().from(tests).where(eq(tests.id, recipient.testId)),
    tx.select({ id: testQuestions.id, domainId: testQuestions.domainId, correctIndex: testQuestions.correctIndex }).from(testQuestions).where(eq(testQuestions.testId, recipient.testId)),
    tx.select().from(testDomains).where(eq(testDomains.testId, recipient.testId)).orderBy(asc(testDomains.position)),
    tx.select({ questionId: answers.questionId, optionIndex: answers.optionIndex }).from(answers).where(eq(answers.recipientId, recipient.id)),
  ]);
  const chosen = new Map(given.map((a) => [a.questionId, a.optionIndex]));
  const unanswered = recipient.questionOrder.filter((id) => !chosen.has(id));
  if (unanswered.length && !options.allowUnanswered) {
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
  const percent = round1((correct / questionRows.length) * 100);
  const result: RecipientResult & ResultView = { percent, correct, questions: questionRows.length, domains: perDomain, passed: passedFor(percent, test.passMark) };
  await tx
    .update(recipients)
    .set({ status: "completed", completedAt: options.at, lastActivityAt: options.at, result, percent, startedAt: recipient.startedAt ?? options.at })
    .where(eq(recipients.id, recipient.id));
  await publishEvent(tx, test.workspaceId, "test.completed", {
    test: test.code,
    score: result.percent,
    correct: result.correct,
    questions: result.questions,
    recipient: { email: recipient.email, name: recipient.name },
    domains: perDomain.map(({ id, name, percent: p, correct: c, questions: q }) => ({ id, name, percent: p, correct: c, questions: q })),
    passed: result.passed,
  });
  if (test.sendResult) await scheduleStep(tx, test.workspaceId, "test.result_email", { recipientId: recipient.id }, new Date());
  return result;
}
