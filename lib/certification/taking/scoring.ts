import type { Db } from "@/db";
import { preparedQuery } from "@/db/prepared";
import type { RecipientResult } from "@/db/schema";
import { AppError } from "@/lib/kernel/errors";
import { sql } from "drizzle-orm";
import { publishEvent, publishEventIf } from "@/lib/platform/pipeline/channels/webhook/publish";
import type { FrozenTest } from "./frozen";
import type { ResultView } from "@/lib/certification/tests/schemas";
import { passedFor } from "@/lib/certification/tests/settings";
import { scheduleStep } from "@/lib/certification/steps";

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
  return { percent, correct, questions: questions.length, domains, passed: passedFor(percent, test.passMark), certificate_url: null };
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

/** The 422 for an attempt submitted before its deadline with questions unanswered; undefined when it may be scored. */
function unansweredError(attempt: Attempt, allowUnanswered: boolean): AppError | undefined {
  const unanswered = attempt.questionOrder.filter((id) => !attempt.chosen.has(id));
  if (!unanswered.length || allowUnanswered) return undefined;
  return new AppError("validation_failed", `${unanswered.length} question(s) are still unanswered.`, {
    fields: unanswered.map((id) => ({ field: `answers.${attempt.questionOrder.indexOf(id) + 1}`, message: "Not answered yet." })),
  });
}

function completedEvent(test: FrozenTest, attempt: Attempt, result: RecipientResult & ResultView) {
  return {
    test: test.code,
    score: result.percent,
    correct: result.correct,
    questions: result.questions,
    recipient: { email: attempt.email, name: attempt.name },
    domains: result.domains.map(({ id, name, percent: p, correct: c, questions: q }) => ({ id, name, percent: p, correct: c, questions: q })),
    passed: result.passed,
  };
}

/**
 * Completes an attempt in ONE statement, without a transaction: the recipient update —
 * only if the row is still the version that was read (`version`, its `xmin`: every saved
 * answer updates the recipient row, so a changed version means the answers may have changed)
 * and still `started` — and `test.completed`, recorded only if that update happened
 * (`publishEventIf`). The update waits for the row lock and is re-checked against the row's
 * latest version, so a concurrent save, submit or deadline step makes it write nothing:
 * undefined, and the caller completes the locked way (`completeAttempt`). Not for tests that
 * e-mail results (the step is another statement).
 */
export async function completeAttemptAtOnce(
  db: Db,
  test: FrozenTest,
  attempt: Attempt & { version: string },
  options: { allowUnanswered: boolean; at: Date },
): Promise<ResultView | undefined> {
  const refused = unansweredError(attempt, options.allowUnanswered);
  if (refused) throw refused;
  const result = scoreAnswers(test, attempt.chosen);
  const at = options.at.toISOString();
  const guard = sql`update recipients
     set status = 'completed', completed_at = ${at}::timestamptz, last_activity_at = ${at}::timestamptz, result = ${JSON.stringify(result)}::jsonb,
         percent = ${result.percent}::real, started_at = coalesce(started_at, ${at}::timestamptz)
   where id = ${attempt.id}::integer and status = 'started' and xmin = ${attempt.version}::text::xid
   returning id`;
  const event = await publishEventIf(db, guard, test.workspaceId, "test.completed", completedEvent(test, attempt, result));
  return event ? result : undefined;
}

/**
 * Completes an attempt in the caller's transaction, which holds the recipient's row lock:
 * scores it (`scoreAnswers`), marks the recipient `completed` at `at`, publishes
 * `test.completed` and, with send_result, schedules the result e-mail. With
 * `allowUnanswered` (the deadline has come) unanswered questions count as wrong; otherwise
 * they are a 422 naming them. The writes are sent together (postgres.js pipelines them on
 * the transaction's connection): one round trip.
 */
export async function completeAttempt(tx: Db, test: FrozenTest, attempt: Attempt, options: { allowUnanswered: boolean; at: Date }): Promise<ResultView> {
  const refused = unansweredError(attempt, options.allowUnanswered);
  if (refused) throw refused;
  const result = scoreAnswers(test, attempt.chosen);
  await Promise.all([
    preparedQuery(tx, COMPLETE_SQL, [attempt.id, options.at.toISOString(), JSON.stringify(result), result.percent]),
    publishEvent(tx, test.workspaceId, "test.completed", completedEvent(test, attempt, result)),
    test.sendResult ? scheduleStep(tx, test.workspaceId, "test.result_email", { recipientId: attempt.id }, new Date()) : undefined,
  ]);
  return result;
}
