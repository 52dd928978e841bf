import type { Db } from "@/db";
import { preparedQuery } from "@/db/prepared";
import type { RecipientResult } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { publishEvent } from "@/lib/events/publish";
import { scheduleStep } from "@/lib/outbox/steps";
import type { FrozenTest } from "./frozen";
import type { ResultView } from "./schemas";
import { passedFor } from "./settings";

const round1 = (value: number) => Math.round(value * 10) / 10;

/**
 * The one scoring definition: each question against its own correct option (`chosen` maps
 * question id → the option chosen, in the question's own order), a percent per domain (in
 * the test's domain order) and overall, rounded to one decimal, and `passed` against the pass
 * mark.
 */
export function scoreAnswers(test: Pick<FrozenTest, "questions" | "domains" | "passMark">, chosen: ReadonlyMap<number, number>): RecipientResult & ResultView {
  const questions = [...test.questions.values()];
  const domains = test.domains.map((domain) => {
    const inDomain = questions.filter((q) => q.domainId === domain.domainId);
    const correct = inDomain.filter((q) => chosen.get(q.id) === q.correctIndex).length;
    return { id: domain.domainId, name: domain.name, correct, questions: inDomain.length, percent: inDomain.length ? round1((correct / inDomain.length) * 100) : 0 };
  });
  const correct = domains.reduce((sum, d) => sum + d.correct, 0);
  const percent = round1((correct / questions.length) * 100);
  return { percent, correct, questions: questions.length, domains, passed: passedFor(percent, test.passMark) };
}

/** The attempt being completed: the recipient, locked by the caller, with the answers given. */
export type Attempt = {
  id: number;
  email: string;
  name: string;
  questionOrder: number[];
  startedAt: Date | null;
  /** Question id → chosen option, in the question's own order. */
  chosen: ReadonlyMap<number, number>;
};

const COMPLETE_SQL = `update recipients
   set status = 'completed', completed_at = $2::timestamptz, last_activity_at = $2::timestamptz, result = $3::text::jsonb, percent = $4::real,
       started_at = coalesce(started_at, $2::timestamptz)
 where id = $1::integer`;

/**
 * Completes an attempt in the caller's transaction, which holds the recipient's row lock:
 * scores it (`scoreAnswers`), marks the recipient `completed` at `at`, publishes
 * `test.completed` and, with send_result, schedules the result e-mail. With
 * `allowUnanswered` (the deadline has come) unanswered questions count as wrong; otherwise
 * they are a 422 naming them. The writes are sent together (postgres.js pipelines them on
 * the transaction's connection): one round trip.
 */
export async function completeAttempt(tx: Db, test: FrozenTest, attempt: Attempt, options: { allowUnanswered: boolean; at: Date }): Promise<ResultView> {
  const unanswered = attempt.questionOrder.filter((id) => !attempt.chosen.has(id));
  if (unanswered.length && !options.allowUnanswered) {
    throw new AppError("validation_failed", `${unanswered.length} question(s) are still unanswered.`, {
      fields: unanswered.map((id) => ({ field: `answers.${attempt.questionOrder.indexOf(id) + 1}`, message: "Not answered yet." })),
    });
  }
  const result = scoreAnswers(test, attempt.chosen);
  await Promise.all([
    preparedQuery(tx, COMPLETE_SQL, [attempt.id, options.at.toISOString(), JSON.stringify(result), result.percent]),
    publishEvent(tx, test.workspaceId, "test.completed", {
      test: test.code,
      score: result.percent,
      correct: result.correct,
      questions: result.questions,
      recipient: { email: attempt.email, name: attempt.name },
      domains: result.domains.map(({ id, name, percent: p, correct: c, questions: q }) => ({ id, name, percent: p, correct: c, questions: q })),
      passed: result.passed,
    }),
    test.sendResult ? scheduleStep(tx, test.workspaceId, "test.result_email", { recipientId: attempt.id }, new Date()) : undefined,
  ]);
  return result;
}
