import { and, eq } from "drizzle-orm";
import type { Db } from "@/db";
import { preparedQuery } from "@/db/prepared";
import { recipients, type Recipient, type RecipientResult } from "@/db/schema";
import { conflict, invalidFields, notFound } from "@/lib/kernel/errors";
import { hashToken, isTokenShaped } from "@/lib/platform/security/tokens";
import type { TestLanguage } from "@/db/schema";
import { frozenTest, type FrozenTest } from "./frozen";
import { chosenOfTuple, kindOf, multipleCount, multipleRefusal, onPage, optionsParam, type AnswerTuple, type MultipleOutcome } from "./multiple";
import { correctOf } from "@/lib/certification/catalog/question-type";
import { completeAttempt, completeAttemptAtOnce, type Attempt } from "./scoring";
import type { AnswerInput, AnswerSaved, AttemptView, ResultView } from "@/lib/certification/tests/schemas";
import { answersVisible, deadlineFor, resultViewOf, testName, windowState, type WindowState } from "@/lib/certification/tests/settings";
import { utcDateTime } from "@/lib/certification/tests/settings-text";
import { scheduleStep } from "@/lib/certification/steps";
import { recordSeen, type Seen } from "./integrity";

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
    /** This recipient's extra time (an accommodation), added to their deadline. */
    extraTimeMinutes: number;
    opensAt: string | null;
    closesAt: string | null;
    /** How many of this recipient's questions are multiple-response (the start page says they are scored all or nothing). */
    multipleQuestions: number;
    /** The test's pass mark (percent), null without one: the result says the score against it. */
    passMark: number | null;
  };
  /** Where the window stands at `now` (a recipient who has not started may start only when `open`). */
  window: WindowState;
  /** The test's `record_integrity`: the page posts what it sees (components/taking/use-integrity.ts) and the start page says what is recorded. */
  recordIntegrity: boolean;
  /** The test's `language`: the page's locale when fixed; `auto` follows the browser (lib/platform/i18n/locales.ts pageLocale). */
  language: TestLanguage;
  /** The server's clock when the page was read: the countdown runs against it, not the device's. */
  now: string;
  startedAt: string | null;
  /** When the attempt ends (time limit or closes_at, plus their extra time); null: no deadline. */
  deadline: string | null;
  /** `type` and `choose`: how many options to pick (1, or a multiple-response question's right set's size). */
  questions: { id: number; domain: string; prompt: string; options: string[]; type: "single" | "multiple"; choose: number }[];
  /** Answers given so far, as positions on this recipient's page. */
  answers: Record<number, number | number[]>;
  result: ResultView | null;
  /** After completion, when show_answers allows: the correct option (a position on this page) and explanation of each question. */
  review: Record<number, { correct: number | number[]; explanation: string }> | null;
  /** Why `review` is null after completion: shown after closes_at, or never. */
  reviewWithheld: { until: string | null } | null;
};

/** The recipient as the taking path reads it: one prepared statement, with the answers given so far. */
type RecipientRow = {
  /** The row's version (`xmin`), from the unlocked read only. */
  version?: string;
  id: number;
  test_id: number;
  status: Recipient["status"];
  name: string;
  email: string;
  question_order: number[];
  option_orders: Recipient["optionOrders"];
  extra_time_minutes: number;
  result: RecipientResult | null;
  started_at: Date | null;
  deadline_at: Date | null;
  /** [question id, option index, the chosen set of a multiple-response question or null] (the question's own order); null before Start. */
  answers: AnswerTuple[] | null;
};

// Times as epoch milliseconds: Drizzle makes postgres.js hand timestamps over as text, PGlite as Date.
const RECIPIENT_COLUMNS = `r.id, r.test_id, r.status, r.name, r.email, r.question_order, r.option_orders, r.result, r.extra_time_minutes,
  (extract(epoch from r.started_at) * 1000)::float8 as started_ms, (extract(epoch from r.deadline_at) * 1000)::float8 as deadline_ms,
  case when r.status = 'sent' then null
       else (select coalesce(jsonb_agg(jsonb_build_array(a.question_id, a.option_index, a.option_indexes)), '[]'::jsonb) from answers a where a.recipient_id = r.id) end as answers
  from recipients r`;

/** The page's, Start's and submit's read: the recipient by its token's hash, with its answers and its row version (`xmin`). */
const RECIPIENT_BY_TOKEN_SQL = `select r.xmin::text as version, ${RECIPIENT_COLUMNS} where r.token_hash = $1::text`;
/** Submit's read, in its transaction: the same, holding the recipient's row lock. */
const LOCKED_BY_TOKEN_SQL = `select ${RECIPIENT_COLUMNS} where r.token_hash = $1::text for update of r`;
/** The deadline step's read. */
const LOCKED_BY_ID_SQL = `select ${RECIPIENT_COLUMNS} where r.id = $1::integer for update of r`;

const dateOf = (ms: number | string | null) => (ms === null ? null : new Date(Number(ms)));

async function readRecipient(db: Db, text: string, key: string | number): Promise<RecipientRow | undefined> {
  const [row] = await preparedQuery<Omit<RecipientRow, "started_at" | "deadline_at"> & { started_ms: number | null; deadline_ms: number | null }>(db, text, [key]);
  if (!row) return undefined;
  const { started_ms, deadline_ms, ...rest } = row;
  return { ...rest, started_at: dateOf(started_ms), deadline_at: dateOf(deadline_ms) };
}

async function frozenTestOf(db: Db, recipient: RecipientRow): Promise<FrozenTest> {
  const test = await frozenTest(db, recipient.test_id);
  // A recipient's test exists as long as the recipient does (on delete cascade).
  if (!test) throw notFound("Test");
  return test;
}

async function findByToken(db: Db, token: string) {
  const [recipient] = await db.select().from(recipients).where(eq(recipients.tokenHash, hashToken(token)));
  return recipient;
}

/** A question's options as this recipient sees them: `order[shown]` is the option's index in the question. */
function orderOf(recipient: Pick<RecipientRow, "option_orders">, questionId: number, optionCount: number): number[] {
  return recipient.option_orders?.[String(questionId)] ?? Array.from({ length: optionCount }, (_, index) => index);
}

/**
 * Reads the personal link for its page. It changes nothing: a link scanner fetching it leaves
 * the recipient `sent`; only Start (a POST, `startTest`) starts the test. Before Start the view
 * carries the test's settings but no question. Unknown → undefined. One prepared statement
 * (the recipient with its answers); the test comes from the per-process frozen copy.
 */
export async function openTest(db: Db, token: string): Promise<TakingView | undefined> {
  if (!isTokenShaped(token)) return undefined;
  const recipient = await readRecipient(db, RECIPIENT_BY_TOKEN_SQL, hashToken(token));
  if (!recipient) return undefined;
  const test = await frozenTestOf(db, recipient);
  const now = new Date();
  const view: TakingView = {
    status: recipient.status,
    name: recipient.name,
    email: recipient.email,
    certification: test.certificationName,
    test: {
      name: testName(test),
      questions: test.questionCount,
      timeLimitMinutes: test.timeLimitMinutes,
      extraTimeMinutes: recipient.extra_time_minutes,
      opensAt: test.opensAt?.toISOString() ?? null,
      closesAt: test.closesAt?.toISOString() ?? null,
      multipleQuestions: multipleCount(test, recipient.question_order),
      passMark: test.passMark,
    },
    window: windowState(test, now),
    recordIntegrity: test.recordIntegrity,
    language: test.language,
    now: now.toISOString(),
    startedAt: recipient.started_at?.toISOString() ?? null,
    deadline: recipient.deadline_at?.toISOString() ?? null,
    questions: [],
    answers: {},
    result: null,
    review: null,
    reviewWithheld: null,
  };
  if (recipient.status === "sent") return view;

  const ordered = recipient.question_order.map((id) => test.questions.get(id)).filter((q) => q !== undefined);
  const orders = new Map(ordered.map((q) => [q.id, orderOf(recipient, q.id, q.options.length)]));
  /** The position on this recipient's page of the question's option `index`. */
  const shown = (questionId: number, index: number) => orders.get(questionId)?.indexOf(index) ?? index;
  view.questions = ordered.map((q) => ({
    id: q.id,
    domain: test.domainName.get(q.domainId) ?? "",
    prompt: q.prompt,
    options: orders.get(q.id)!.map((index) => q.options[index]),
    ...kindOf(q),
  }));
  view.answers = Object.fromEntries((recipient.answers ?? []).map((answer) => [answer[0], onPage(chosenOfTuple(answer), (index) => shown(answer[0], index))]));
  if (recipient.status === "completed") {
    view.result = recipient.result ? resultViewOf(recipient.result) : null;
    if (answersVisible(test, now)) {
      view.review = Object.fromEntries(ordered.map((q) => [q.id, { correct: onPage(correctOf(q), (index) => shown(q.id, index)), explanation: q.explanation }]));
    } else {
      view.reviewWithheld = { until: test.showAnswers === "after_close" ? (test.closesAt?.toISOString() ?? null) : null };
    }
  }
  return view;
}

function attemptOf(recipient: { status: Recipient["status"]; startedAt: Date | null; deadlineAt: Date | null }): AttemptView {
  return { status: recipient.status, started_at: recipient.startedAt?.toISOString() ?? null, deadline: recipient.deadlineAt?.toISOString() ?? null };
}

/**
 * Start (a POST from the page's button, so a link scanner never starts a test): the status
 * becomes `started`, the clock starts and the deadline is fixed — the time limit or closes_at,
 * whichever comes first, plus the recipient's extra time (deadlineFor) — with the step that submits the attempt then (it survives restarts:
 * a row in `scheduled_steps`). Idempotent: a started or completed recipient is answered as
 * they stand. Before opens_at or from closes_at on → 409, nothing changes. `seen` (the
 * request's address and browser) joins the integrity record, in the same transaction, when
 * this call starts the attempt and the test records integrity.
 */
export async function startTest(db: Db, token: string, seen?: Seen): Promise<AttemptView> {
  if (!isTokenShaped(token)) throw notFound("Test");
  const recipient = await readRecipient(db, RECIPIENT_BY_TOKEN_SQL, hashToken(token));
  if (!recipient) throw notFound("Test");
  if (recipient.status !== "sent") return attemptOf({ status: recipient.status, startedAt: recipient.started_at, deadlineAt: recipient.deadline_at });
  const test = await frozenTestOf(db, recipient);
  const now = new Date();
  const window = windowState(test, now);
  if (window === "not_open") throw conflict(`This test opens at ${utcDateTime(test.opensAt!)}.`);
  if (window === "closed") throw conflict(`This test closed at ${utcDateTime(test.closesAt!)}.`);
  const deadline = deadlineFor(test, now, recipient.extra_time_minutes);
  return db.transaction(async (tx) => {
    const [started] = await tx
      .update(recipients)
      .set({ status: "started", startedAt: now, lastActivityAt: now, deadlineAt: deadline })
      .where(and(eq(recipients.id, recipient.id), eq(recipients.status, "sent")))
      .returning();
    // Another Start won the race: answer as the recipient now stands.
    if (!started) return attemptOf((await findByToken(tx, token))!);
    if (deadline) await scheduleStep(tx, test.workspaceId, "test.deadline", { recipientId: recipient.id }, deadline);
    if (seen && test.recordIntegrity) await recordSeen(tx, recipient.id, "start", seen);
    return attemptOf(started);
  });
}

/** How far this process's clock may trail the database's: a deadline step due within it is retried, not dropped. */
export const DEADLINE_CLOCK_SLACK_MS = 5_000;

const SUBMITTED = "This test has been submitted; answers can no longer change.";
const NOT_STARTED = "This test has not been started: press Start on the test's page first.";
const timeUp = (deadline: Date) => `Time is up: the test ended at ${utcDateTime(deadline)}; it is submitted with the answers given by then.`;

type SaveOutcome = "saved" | "not_found" | "completed" | "not_started" | "time_up" | "unknown_question" | "no_such_option" | MultipleOutcome;
type SaveRow = { outcome: SaveOutcome; deadline_ms: number | null; answered: number | null; questions: number | null; choose: number | null };

const SAVE_ANSWER_SQL =
  "select outcome, (extract(epoch from deadline) * 1000)::float8 as deadline_ms, answered, questions, choose from taking_save_answer($1::text, $2::integer, $3::integer, $4::text::integer[], $5::timestamptz)";

/**
 * Saves one answer as it is given (the last one given for a question counts). `option` is a
 * position on this recipient's page; it is stored as the question's own option through the
 * recipient's option order, which only the server holds. Refused (409) before Start, after
 * submission and from the deadline on: the recipient row is updated first, under its lock,
 * and only while it is started and before its deadline, so an answer never lands after the
 * attempt was submitted. One round trip: the checks, the upsert and the count are the SQL
 * function `taking_save_answer` (db/migrations/0028_taking_multiple.sql: `options` for a multiple-response question; 0024_tokens_at_rest.sql looks the
 * recipient up by the token's hash; first written in 0022_taking_functions.sql); its outcome is
 * mapped to the errors here.
 */
export async function saveAnswer(db: Db, token: string, parsed: AnswerInput): Promise<AnswerSaved> {
  if (!isTokenShaped(token)) throw notFound("Test");
  const [row] = await preparedQuery<SaveRow>(db, SAVE_ANSWER_SQL, [hashToken(token), parsed.question_id, parsed.option ?? null, optionsParam(parsed.options), new Date().toISOString()]);
  switch (row.outcome) {
    case "saved":
      return { answered: row.answered!, questions: row.questions! };
    case "not_found":
      throw notFound("Test");
    case "completed":
      throw conflict(SUBMITTED);
    case "not_started":
      throw conflict(NOT_STARTED);
    case "time_up":
      throw conflict(timeUp(dateOf(row.deadline_ms)!));
    case "unknown_question":
      throw invalidFields([{ field: "question_id", message: "Not a question of this test." }]);
    case "no_such_option":
      throw invalidFields([{ field: "option", message: "No such option." }]);
    default:
      throw multipleRefusal(row.outcome, row.choose);
  }
}

/** The answers of a locked recipient as the scorer takes them. */
function attemptFrom(recipient: RecipientRow): Attempt {
  return {
    id: recipient.id,
    email: recipient.email,
    name: recipient.name,
    questionOrder: recipient.question_order,
    startedAt: recipient.started_at,
    chosen: new Map((recipient.answers ?? []).map((answer) => [answer[0], chosenOfTuple(answer)])),
  };
}

/**
 * Submits the test: before the deadline every question must be answered (422 names the
 * unanswered ones); from the deadline on it is submitted with the answers given, as the
 * deadline step would. Submitting again answers the same result and publishes nothing.
 * Usually two round trips and no transaction: the read (with the answers and the row's
 * version), then one statement that completes the attempt only if the row is unchanged and
 * publishes `test.completed` (`completeAttemptAtOnce`). When anything changed the row in
 * between (a save, another submit, the deadline step), or the test e-mails results or issues certificates, it is
 * completed the locked way: the row lock makes two submits, or a submit and the deadline
 * step, one completion. `seen` (the request's address and browser) joins the integrity record
 * when this call completes the attempt and the test records integrity: one more statement.
 */
export async function submitTest(db: Db, token: string, seen?: Seen): Promise<ResultView> {
  if (!isTokenShaped(token)) throw notFound("Test");
  const read = await readRecipient(db, RECIPIENT_BY_TOKEN_SQL, hashToken(token));
  if (!read) throw notFound("Test");
  if (read.status === "completed" && read.result) return resultViewOf(read.result);
  if (read.status === "sent") throw conflict(NOT_STARTED);
  const test = await frozenTestOf(db, read);
  if (read.status === "started" && !test.sendResult && !test.certificate) {
    const done = await completeAttemptAtOnce(db, test, { ...attemptFrom(read), version: read.version! }, submission(read));
    if (done && seen && test.recordIntegrity) await recordSeen(db, read.id, "submit", seen);
    if (done) return done;
  }
  return db.transaction(async (tx) => {
    const recipient = await readRecipient(tx, LOCKED_BY_TOKEN_SQL, hashToken(token));
    if (!recipient) throw notFound("Test");
    if (recipient.status === "completed" && recipient.result) return resultViewOf(recipient.result);
    if (recipient.status === "sent") throw conflict(NOT_STARTED);
    const result = await completeAttempt(tx, test, attemptFrom(recipient), submission(recipient));
    if (seen && test.recordIntegrity) await recordSeen(tx, recipient.id, "submit", seen);
    return result;
  });
}

/** Before the deadline: now, every question answered; from it on: at the deadline, with the answers given. */
function submission(recipient: RecipientRow): { allowUnanswered: boolean; at: Date } {
  const now = new Date();
  const late = recipient.deadline_at !== null && now >= recipient.deadline_at;
  return { allowUnanswered: late, at: late ? recipient.deadline_at! : now };
}

/**
 * The deadline step: submits a started attempt whose deadline has come with the answers
 * given (unanswered ones count as wrong), whether or not the page is still open. A recipient
 * who already submitted is left as they are (one completion, one `test.completed`). A step
 * that comes well before the recipient's deadline is the step of an earlier deadline, moved
 * since by a change of extra time: it does nothing (the move scheduled a step for the new one).
 */
export async function submitAtDeadline(db: Db, recipientId: number): Promise<void> {
  await db.transaction(async (tx) => {
    const recipient = await readRecipient(tx, LOCKED_BY_ID_SQL, recipientId);
    if (!recipient || recipient.status !== "started" || !recipient.deadline_at) return;
    const early = recipient.deadline_at.getTime() - Date.now();
    // The step of a deadline since moved later (extra time changed, PATCH): the new deadline has its own step.
    if (early > DEADLINE_CLOCK_SLACK_MS) return;
    // Claimed by the database's clock; should this one lag, the step is retried shortly.
    if (early > 0) throw new Error(`recipient ${recipientId}'s deadline has not come yet`);
    const test = await frozenTestOf(tx, recipient);
    await completeAttempt(tx, test, attemptFrom(recipient), { allowUnanswered: true, at: recipient.deadline_at });
  });
}
