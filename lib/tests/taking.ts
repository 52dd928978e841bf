import { and, eq, gt, isNull, or, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { answers, recipients, testDomains, testQuestions, tests, type Recipient, type RecipientResult } from "@/db/schema";
import { AppError, conflict, invalidFields, notFound } from "@/lib/errors";
import { scheduleStep } from "@/lib/outbox/steps";
import { isTokenShaped } from "./links";
import { completeAttempt } from "./scoring";
import type { AnswerInput, AnswerSaved, AttemptView, ResultView } from "./schemas";
import { answersVisible, deadlineFor, testName, windowState, type WindowState } from "./settings";
import { utcDateTime } from "./settings-text";

/** What the recipient's page shows. Questions (in the recipient's order, options as they see them) only once started. */
export type TakingView = {
  status: Recipient["status"];
  name: string;
  email: string;
  certification: string;
  test: {
    name: string;
    questions: number;
    timeLimitMinutes: number | null;
    opensAt: string | null;
    closesAt: string | null;
  };
  /** Where the window stands at `now` (a recipient who has not started may start only when `open`). */
  window: WindowState;
  /** The server's clock when the page was read: the countdown runs against it, not the device's. */
  now: string;
  startedAt: string | null;
  /** When the attempt ends (time limit or closes_at); null: no deadline. */
  deadline: string | null;
  questions: { id: number; domain: string; prompt: string; options: string[] }[];
  /** Answers given so far, as positions on this recipient's page. */
  answers: Record<number, number>;
  result: ResultView | null;
  /** After completion, when show_answers allows: the correct option (a position on this page) and explanation of each question. */
  review: Record<number, { correct: number; explanation: string }> | null;
  /** Why `review` is null after completion: shown after closes_at, or never. */
  reviewWithheld: { until: string | null } | null;
};

/** The test columns the recipient's routes need (never the workspace's other tests' data). */
const testColumns = {
  testName: tests.name,
  certificationName: tests.certificationName,
  questionCount: tests.questionCount,
  timeLimitMinutes: tests.timeLimitMinutes,
  opensAt: tests.opensAt,
  closesAt: tests.closesAt,
  showAnswers: tests.showAnswers,
  workspaceId: tests.workspaceId,
};

async function findByToken(db: Db, token: string, lock = false) {
  if (!isTokenShaped(token)) return undefined;
  const query = db.select().from(recipients).where(eq(recipients.token, token));
  const [recipient] = lock ? await query.for("update") : await query;
  return recipient;
}

/**
 * The reads of the recipient's page, prepared once per database (the page is the busiest
 * one: every recipient opens it, and reloads it): Drizzle builds each query once. The
 * recipient comes with its test's settings in one read.
 */
function buildTakingQueries(db: Db) {
  const testId = sql.placeholder("testId");
  return {
    recipient: db
      .select({ recipient: recipients, test: testColumns })
      .from(recipients)
      .innerJoin(tests, eq(tests.id, recipients.testId))
      .where(eq(recipients.token, sql.placeholder("token")))
      .prepare("taking_recipient"),
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

function queriesFor(db: Db) {
  let queries = takingQueries.get(db);
  if (!queries) takingQueries.set(db, (queries = buildTakingQueries(db)));
  return queries;
}

/** A question's options as this recipient sees them: `order[shown]` is the option's index in the question. */
function orderOf(recipient: Pick<Recipient, "optionOrders">, questionId: number, optionCount: number): number[] {
  return recipient.optionOrders?.[String(questionId)] ?? Array.from({ length: optionCount }, (_, index) => index);
}

/**
 * Reads the personal link for its page. It changes nothing: a link scanner fetching it leaves
 * the recipient `sent`; only Start (a POST, `startTest`) starts the test. Before Start the view
 * carries the test's settings but no question. Unknown → undefined.
 */
export async function openTest(db: Db, token: string): Promise<TakingView | undefined> {
  if (!isTokenShaped(token)) return undefined;
  const queries = queriesFor(db);
  const [row] = await queries.recipient.execute({ token });
  if (!row) return undefined;
  const { recipient, test } = row;
  const now = new Date();
  const view: TakingView = {
    status: recipient.status,
    name: recipient.name,
    email: recipient.email,
    certification: test.certificationName,
    test: {
      name: testName({ name: test.testName, certificationName: test.certificationName }),
      questions: test.questionCount,
      timeLimitMinutes: test.timeLimitMinutes,
      opensAt: test.opensAt?.toISOString() ?? null,
      closesAt: test.closesAt?.toISOString() ?? null,
    },
    window: windowState(test, now),
    now: now.toISOString(),
    startedAt: recipient.startedAt?.toISOString() ?? null,
    deadline: recipient.deadlineAt?.toISOString() ?? null,
    questions: [],
    answers: {},
    result: null,
    review: null,
    reviewWithheld: null,
  };
  if (recipient.status === "sent") return view;

  const [questionRows, domainRows, given] = await Promise.all([
    queries.questions.execute({ testId: recipient.testId }),
    queries.domains.execute({ testId: recipient.testId }),
    queries.answers.execute({ recipientId: recipient.id }),
  ]);
  const domainName = new Map(domainRows.map((d) => [d.domainId, d.name]));
  const byId = new Map(questionRows.map((q) => [q.id, q]));
  const ordered = recipient.questionOrder.map((id) => byId.get(id)).filter((q) => q !== undefined);
  const orders = new Map(ordered.map((q) => [q.id, orderOf(recipient, q.id, q.options.length)]));
  /** The position on this recipient's page of the question's option `index`. */
  const shown = (questionId: number, index: number) => orders.get(questionId)?.indexOf(index) ?? index;
  view.questions = ordered.map((q) => ({
    id: q.id,
    domain: domainName.get(q.domainId) ?? "",
    prompt: q.prompt,
    options: orders.get(q.id)!.map((index) => q.options[index]),
  }));
  view.answers = Object.fromEntries(given.map((a) => [a.questionId, shown(a.questionId, a.optionIndex)]));
  if (recipient.status === "completed") {
    view.result = recipient.result ? withPassed(recipient.result) : null;
    if (answersVisible(test, now)) {
      view.review = Object.fromEntries(ordered.map((q) => [q.id, { correct: shown(q.id, q.correctIndex), explanation: q.explanation }]));
    } else {
      view.reviewWithheld = { until: test.showAnswers === "after_close" ? (test.closesAt?.toISOString() ?? null) : null };
    }
  }
  return view;
}

function attemptOf(recipient: Recipient): AttemptView {
  return { status: recipient.status, started_at: recipient.startedAt?.toISOString() ?? null, deadline: recipient.deadlineAt?.toISOString() ?? null };
}

/**
 * Start (a POST from the page's button, so a link scanner never starts a test): the status
 * becomes `started`, the clock starts and the deadline is fixed — the time limit or closes_at,
 * whichever comes first — with the step that submits the attempt then (it survives restarts:
 * a row in `scheduled_steps`). Idempotent: a started or completed recipient is answered as
 * they stand. Before opens_at or from closes_at on → 409, nothing changes.
 */
export async function startTest(db: Db, token: string): Promise<AttemptView> {
  if (!isTokenShaped(token)) throw notFound("Test");
  const [row] = await queriesFor(db).recipient.execute({ token });
  if (!row) throw notFound("Test");
  const { recipient, test } = row;
  if (recipient.status !== "sent") return attemptOf(recipient);
  const now = new Date();
  const window = windowState(test, now);
  if (window === "not_open") throw conflict(`This test opens at ${utcDateTime(test.opensAt!)}.`);
  if (window === "closed") throw conflict(`This test closed at ${utcDateTime(test.closesAt!)}.`);
  const deadline = deadlineFor(test, now);
  return db.transaction(async (tx) => {
    const [started] = await tx
      .update(recipients)
      .set({ status: "started", startedAt: now, lastActivityAt: now, deadlineAt: deadline })
      .where(and(eq(recipients.id, recipient.id), eq(recipients.status, "sent")))
      .returning();
    // Another Start won the race: answer as the recipient now stands.
    if (!started) return attemptOf((await findByToken(tx, token))!);
    if (deadline) await scheduleStep(tx, test.workspaceId, "test.deadline", { recipientId: recipient.id }, deadline);
    return attemptOf(started);
  });
}

/** Why a recipient cannot change an answer now, or undefined if they can. */
function answeringClosed(recipient: Pick<Recipient, "status" | "deadlineAt">, now: Date): AppError | undefined {
  if (recipient.status === "completed") return conflict("This test has been submitted; answers can no longer change.");
  if (recipient.status === "sent") return conflict("This test has not been started: press Start on the test's page first.");
  if (recipient.deadlineAt && now >= recipient.deadlineAt) {
    return conflict(`Time is up: the test ended at ${utcDateTime(recipient.deadlineAt)}; it is submitted with the answers given by then.`);
  }
  return undefined;
}

/**
 * Saves one answer as it is given (the last one given for a question counts). `option` is a
 * position on this recipient's page; it is stored as the question's own option through the
 * recipient's option order, which only the server holds. Refused (409) before Start, after
 * submission and from the deadline on: the recipient row is updated first, under its lock,
 * and only while it is started and before its deadline, so an answer never lands after the
 * attempt was submitted.
 */
export async function saveAnswer(db: Db, token: string, parsed: AnswerInput): Promise<AnswerSaved> {
  const recipient = await findByToken(db, token);
  if (!recipient) throw notFound("Test");
  const closed = answeringClosed(recipient, new Date());
  if (closed) throw closed;
  let order = recipient.optionOrders?.[String(parsed.question_id)];
  if (!recipient.optionOrders) {
    // A recipient from before option orders: the question is read for its options.
    const [question] = await db
      .select({ options: testQuestions.options })
      .from(testQuestions)
      .where(and(eq(testQuestions.id, parsed.question_id), eq(testQuestions.testId, recipient.testId)));
    order = question ? orderOf(recipient, parsed.question_id, question.options.length) : undefined;
  }
  if (!order) throw invalidFields([{ field: "question_id", message: "Not a question of this test." }]);
  if (parsed.option >= order.length) throw invalidFields([{ field: "option", message: "No such option." }]);
  const optionIndex = order[parsed.option];
  const now = new Date();
  const saved = await db.transaction(async (tx) => {
    const [open] = await tx
      .update(recipients)
      .set({ lastActivityAt: now })
      .where(and(eq(recipients.id, recipient.id), eq(recipients.status, "started"), or(isNull(recipients.deadlineAt), gt(recipients.deadlineAt, now))))
      .returning({ id: recipients.id });
    if (!open) return false;
    await tx
      .insert(answers)
      .values({ recipientId: recipient.id, questionId: parsed.question_id, optionIndex, answeredAt: now })
      .onConflictDoUpdate({ target: [answers.recipientId, answers.questionId], set: { optionIndex, answeredAt: now } });
    return true;
  });
  if (!saved) {
    // Submitted (or timed out) since it was read: say why, as it stands now.
    const current = (await findByToken(db, token))!;
    throw answeringClosed(current, now) ?? conflict("This test has been submitted; answers can no longer change.");
  }
  const [{ answered }] = await db
    .select({ answered: sql<number>`count(*)::int` })
    .from(answers)
    .where(eq(answers.recipientId, recipient.id));
  return { answered, questions: recipient.questionOrder.length };
}

/**
 * Submits the test: before the deadline every question must be answered (422 names the
 * unanswered ones); from the deadline on it is submitted with the answers given, as the
 * deadline step would. Submitting again answers the same result and publishes nothing (the
 * recipient row is locked, so two submits at once, or a submit and the deadline step, are one).
 */
export async function submitTest(db: Db, token: string): Promise<ResultView> {
  const found = await findByToken(db, token);
  if (!found) throw notFound("Test");
  if (found.status === "completed" && found.result) return withPassed(found.result);
  if (found.status === "sent") throw conflict("This test has not been started: press Start on the test's page first.");
  return db.transaction(async (tx) => {
    const recipient = (await findByToken(tx, token, true))!;
    if (recipient.status === "completed" && recipient.result) return withPassed(recipient.result);
    const now = new Date();
    const late = recipient.deadlineAt !== null && now >= recipient.deadlineAt;
    return completeAttempt(tx, recipient, { allowUnanswered: late, at: late ? recipient.deadlineAt! : now });
  });
}

const withPassed = (result: RecipientResult): ResultView => ({ ...result, passed: result.passed ?? null });

/**
 * The deadline step: submits a started attempt whose deadline has come with the answers
 * given (unanswered ones count as wrong), whether or not the page is still open. A recipient
 * who already submitted is left as they are (one completion, one `test.completed`).
 */
export async function submitAtDeadline(db: Db, recipientId: number): Promise<void> {
  await db.transaction(async (tx) => {
    const [recipient] = await tx.select().from(recipients).where(eq(recipients.id, recipientId)).for("update");
    if (!recipient || recipient.status !== "started" || !recipient.deadlineAt) return;
    // Claimed by the database's clock; should this one lag, the step is retried shortly.
    if (Date.now() < recipient.deadlineAt.getTime()) throw new Error(`recipient ${recipientId}'s deadline has not come yet`);
    await completeAttempt(tx, recipient, { allowUnanswered: true, at: recipient.deadlineAt });
  });
}
