import type { Db } from "@/db";
import { preparedQuery } from "@/db/prepared";
import type { RecipientResult } from "@/db/schema";
import { AppError } from "@/lib/kernel/errors";
import { sql } from "drizzle-orm";
import { publishEvent, publishEventIf } from "@/lib/platform/pipeline/channels/webhook/publish";
import type { FrozenTest } from "./frozen";
import type { ResultView } from "@/lib/certification/tests/schemas";
import { passedFor, resultViewOf } from "@/lib/certification/tests/settings";
import { scheduleStep } from "@/lib/certification/steps";
import { isCorrect, type Chosen } from "@/lib/certification/catalog/question-type";
import { certificateOnPass, withCertificate } from "@/lib/certification/certificates/issue";

const round1 = (value: number) => Math.round(value * 10) / 10;

/**
 * The one scoring definition: each of the recipient's questions (`questionOrder`: on a
 * per_recipient test their own set, not the whole pool) against its own correct option, or its exact right set, all or nothing (`isCorrect`; `chosen` maps
 * question id → the option or set chosen, in the question's own order), a percent per domain (in
 * the test's domain order) and overall, rounded to one decimal, and `passed` against the pass
 * mark.
 */
export function scoreAnswers(test: Pick<FrozenTest, "questions" | "domains" | "passMark">, chosen: ReadonlyMap<number, Chosen>, questionOrder: readonly number[]): RecipientResult {
  const questions = questionOrder.map((id) => test.questions.get(id)).filter((question) => question !== undefined);
  const domains = test.domains.map((domain) => {
    const inDomain = questions.filter((q) => q.domainId === domain.domainId);
    const correct = inDomain.filter((q) => isCorrect(q, chosen.get(q.id))).length;
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
  /** Question id → chosen option (a set on a multiple-response question), in the question's own order. */
  chosen: ReadonlyMap<number, Chosen>;
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

function completedEvent(test: FrozenTest, attempt: Attempt, result: RecipientResult) {
  return {
    test: test.code,
    score: result.percent,
    correct: result.correct,
    questions: result.questions,
    recipient: { email: attempt.email, name: attempt.name },
    domains: result.domains.map(({ id, name, percent: p, correct: c, questions: q }) => ({ id, name, percent: p, correct: c, questions: q })),
    passed: result.passed,
    certificate_url: result.certificateUrl ?? null,
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
 * e-mail results (the step is another statement) or issue certificates (the certificate is
 * another row): such a test answers undefined here.
 */
export async function completeAttemptAtOnce(
  db: Db,
  test: FrozenTest,
  attempt: Attempt & { version: string },
  options: { allowUnanswered: boolean; at: Date },
): Promise<ResultView | undefined> {
  const refused = unansweredError(attempt, options.allowUnanswered);
  if (refused) throw refused;
  if (test.certificate) return undefined;
  const result = scoreAnswers(test, attempt.chosen, attempt.questionOrder);
  const at = options.at.toISOString();
  const guard = sql`update recipients
     set status = 'completed', completed_at = ${at}::timestamptz, last_activity_at = ${at}::timestamptz, result = ${JSON.stringify(result)}::jsonb,
         percent = ${result.percent}::real, started_at = coalesce(started_at, ${at}::timestamptz)
   where id = ${attempt.id}::integer and status = 'started' and xmin = ${attempt.version}::text::xid
   returning id`;
  const event = await publishEventIf(db, guard, test.workspaceId, "test.completed", completedEvent(test, attempt, result));
  return event ? resultViewOf(result) : undefined;
}

/**
 * Completes an attempt in the caller's transaction, which holds the recipient's row lock:
 * scores it (`scoreAnswers`), marks the recipient `completed` at `at`, publishes
 * `test.completed`, with send_result schedules the result e-mail and, with `certificate`,
 * issues a certificate on a pass (lib/certification/certificates/issue.ts). With
 * `allowUnanswered` (the deadline has come) unanswered questions count as wrong; otherwise
 * they are a 422 naming them. The writes are sent together (postgres.js pipelines them on
 * the transaction's connection): one round trip.
 */
export async function completeAttempt(tx: Db, test: FrozenTest, attempt: Attempt, options: { allowUnanswered: boolean; at: Date }): Promise<ResultView> {
  const refused = unansweredError(attempt, options.allowUnanswered);
  if (refused) throw refused;
  const result = scoreAnswers(test, attempt.chosen, attempt.questionOrder);
  // With the test's `certificate`, a pass issues one in this transaction: the stored result, the event and the views carry its URL.
  const certificate = certificateOnPass(test, attempt, result, options.at);
  const stored = withCertificate(result, certificate);
  await Promise.all([
    preparedQuery(tx, COMPLETE_SQL, [attempt.id, options.at.toISOString(), JSON.stringify(stored), result.percent]),
    publishEvent(tx, test.workspaceId, "test.completed", completedEvent(test, attempt, stored)),
    certificate?.write(tx),
    test.sendResult ? scheduleStep(tx, test.workspaceId, "test.result_email", { recipientId: attempt.id }, new Date()) : undefined,
  ]);
  return resultViewOf(stored);
}
