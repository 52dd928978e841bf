import { boolean, doublePrecision, index, integer, jsonb, pgTable, primaryKey, real, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "./auth";
import { certifications } from "./certifications";
import { workspaces } from "./workspaces";
import { drawModes, recipientStatuses, showAnswersPolicies, testLanguages } from "./statuses";
import type { QuestionType } from "./certifications";

export { drawModes, recipientStatuses, showAnswersPolicies, testLanguages };

export type DrawMode = (typeof drawModes)[number];
export type TestLanguage = (typeof testLanguages)[number];

export type ShowAnswers = (typeof showAnswersPolicies)[number];

/** A test: questions drawn once from a certification's domains, then frozen. */
export const tests = pgTable(
  "tests",
  {
    id: serial("id").primaryKey(),
    code: text("code").notNull().unique(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    certificationId: integer("certification_id")
      .notNull()
      .references(() => certifications.id),
    certificationName: text("certification_name").notNull(),
    questionCount: integer("question_count").notNull(),
    classId: integer("class_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    // Settings (docs/decisions.md, "Test settings"), fixed at creation.
    /** Null on tests made before names existed: shown as "{certification} test". */
    name: text("name"),
    /** Minutes from the recipient's Start to the deadline; null: no limit. */
    timeLimitMinutes: integer("time_limit_minutes"),
    /** The window: Start is refused before opens_at and from closes_at on; an attempt in progress ends at closes_at. */
    opensAt: timestamp("opens_at", { withTimezone: true }),
    closesAt: timestamp("closes_at", { withTimezone: true }),
    /** Percent a result needs to pass; null: no pass mark (`passed` is null). */
    passMark: doublePrecision("pass_mark"),
    /** Each recipient sees the options of each question in an order of their own. */
    shuffleOptions: boolean("shuffle_options").notNull().default(true),
    showAnswers: text("show_answers").$type<ShowAnswers>().notNull().default("after_submit"),
    /** One reminder this many hours after the e-mail to recipients who have not completed; null: none. */
    reminderAfterHours: integer("reminder_after_hours"),
    /** E-mail each recipient their result when they complete. */
    sendResult: boolean("send_result").notNull().default(false),
    /** `per_test`: `test_questions` is the one set everyone gets. `per_recipient`: it is the pool (every question of the chosen domains), and each recipient's `question_order` is their own draw, with `test_domains.questions` per domain. */
    draw: text("draw").$type<DrawMode>().notNull().default("per_test"),
    /** Record each attempt's integrity signals (attempt_integrity). */
    recordIntegrity: boolean("record_integrity").notNull().default(true),
    /** Issue a certificate on a pass (needs a pass mark). */
    certificate: boolean("certificate").notNull().default(false),
    /** The language of the recipient's pages and e-mails: `auto` (the browser; e-mails the workspace's default) or a fixed locale. */
    language: text("language").$type<TestLanguage>().notNull().default("auto"),
  },
  (t) => [index("tests_workspace_idx").on(t.workspaceId, t.createdAt)],
);

/** The domains a test covers, with how many questions each got (frozen names). */
export const testDomains = pgTable(
  "test_domains",
  {
    testId: integer("test_id")
      .notNull()
      .references(() => tests.id, { onDelete: "cascade" }),
    domainId: integer("domain_id").notNull(),
    name: text("name").notNull(),
    position: integer("position").notNull(),
    questions: integer("questions").notNull(),
  },
  (t) => [primaryKey({ columns: [t.testId, t.domainId] })],
);

/** A frozen copy of each drawn question: later edits of the bank never change a sent test. */
export const testQuestions = pgTable(
  "test_questions",
  {
    id: serial("id").primaryKey(),
    testId: integer("test_id")
      .notNull()
      .references(() => tests.id, { onDelete: "cascade" }),
    domainId: integer("domain_id").notNull(),
    position: integer("position").notNull(),
    prompt: text("prompt").notNull(),
    options: jsonb("options").$type<string[]>().notNull(),
    type: text("type").$type<QuestionType>().notNull().default("single"),
    correctIndex: integer("correct_index").notNull(),
    /** A `multiple` question's right options, ascending; null on a `single` one. */
    correctIndexes: jsonb("correct_indexes").$type<number[]>(),
    explanation: text("explanation").notNull().default(""),
  },
  (t) => [index("test_questions_test_idx").on(t.testId, t.position)],
);

export type RecipientStatus = (typeof recipientStatuses)[number];

export type DomainResult = { id: number; name: string; percent: number; correct: number; questions: number };
/** `passed` is decided at completion against the test's pass mark (absent on results older than pass marks: null). */
export type RecipientResult = {
  percent: number;
  correct: number;
  questions: number;
  domains: DomainResult[];
  passed?: boolean | null;
  /** The certificate's verification page, when one was issued at completion (a test's `certificate`). */
  certificateUrl?: string | null;
};

/**
 * Per question id, the options in the order this recipient sees them: `order[shown]` is the
 * option's index in the question (`test_questions.options`). Answers are stored in the
 * question's own order, so scoring and analysis never depend on a recipient's order.
 */
export type OptionOrders = Record<string, number[]>;

/**
 * One person a test was sent to. Their personal link (`/t/{token}`, a capability, no account)
 * is stored only hashed (to look it up) and sealed (to show and e-mail it again): a copy of the
 * database alone does not open it (docs/security.md, "Tokens and secrets at rest").
 */
export const recipients = pgTable(
  "recipients",
  {
    id: serial("id").primaryKey(),
    testId: integer("test_id")
      .notNull()
      .references(() => tests.id, { onDelete: "cascade" }),
    workspaceId: text("workspace_id").notNull(),
    email: text("email").notNull(),
    name: text("name").notNull().default(""),
    /** SHA-256 (hex) of the personal token: what the link is looked up by. */
    tokenHash: text("token_hash").notNull(),
    /** The token sealed with the application key (lib/platform/security/sealing.ts): the link shown to the trainer and e-mailed again. */
    tokenSealed: text("token_sealed").notNull(),
    status: text("status").$type<RecipientStatus>().notNull().default("sent"),
    /** Question ids in this recipient's shuffled order. */
    questionOrder: jsonb("question_order").$type<number[]>().notNull(),
    /** The options' order per question for this recipient (identity when the test does not shuffle); null on older recipients: as stored. */
    optionOrders: jsonb("option_orders").$type<OptionOrders>(),
    studentUserId: text("student_user_id").references(() => users.id, { onDelete: "set null" }),
    result: jsonb("result").$type<RecipientResult>(),
    percent: real("percent"),
    sentAt: timestamp("sent_at", { withTimezone: true }).notNull().defaultNow(),
    lastSentAt: timestamp("last_sent_at", { withTimezone: true }),
    startedAt: timestamp("started_at", { withTimezone: true }),
    completedAt: timestamp("completed_at", { withTimezone: true }),
    lastActivityAt: timestamp("last_activity_at", { withTimezone: true }),
    /** When the attempt ends (set at Start: the time limit or closes_at, whichever comes first, plus extra_time_minutes; moved by a change of extra time); null: no deadline. */
    deadlineAt: timestamp("deadline_at", { withTimezone: true }),
    /** When the one reminder e-mail was queued. */
    remindedAt: timestamp("reminded_at", { withTimezone: true }),
    /** When the result e-mail (send_result) was queued. */
    resultEmailedAt: timestamp("result_emailed_at", { withTimezone: true }),
    /** An accommodation: minutes added to this recipient's deadline (0–600). */
    extraTimeMinutes: integer("extra_time_minutes").notNull().default(0),
  },
  (t) => [
    uniqueIndex("recipients_token_hash_idx").on(t.tokenHash),
    uniqueIndex("recipients_test_email_idx").on(t.testId, t.email),
    index("recipients_student_idx").on(t.studentUserId),
    index("recipients_email_idx").on(t.email),
    /** A test's recipients in id order: the CSV's streamed reads and the paged recipients (issue 28). */
    index("recipients_test_idx").on(t.testId, t.id),
  ],
);

/** Answers saved one by one as they are given. */
export const answers = pgTable(
  "answers",
  {
    recipientId: integer("recipient_id")
      .notNull()
      .references(() => recipients.id, { onDelete: "cascade" }),
    questionId: integer("question_id")
      .notNull()
      .references(() => testQuestions.id, { onDelete: "cascade" }),
    /** The chosen option in the question's own order (test_questions.options), whatever order the recipient saw; on a `multiple` question the first of `option_indexes`. */
    optionIndex: integer("option_index").notNull(),
    /** A `multiple` question's chosen options, in the question's own order, ascending; null on a `single` one. */
    optionIndexes: jsonb("option_indexes").$type<number[]>(),
    answeredAt: timestamp("answered_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.recipientId, t.questionId] })],
);

export type Test = typeof tests.$inferSelect;
export type Recipient = typeof recipients.$inferSelect;
export type TestQuestion = typeof testQuestions.$inferSelect;
