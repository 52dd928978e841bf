import { index, integer, jsonb, pgTable, primaryKey, real, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "./auth";
import { certifications } from "./certifications";
import { workspaces } from "./workspaces";
import { recipientStatuses } from "./statuses";

export { recipientStatuses };

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
    correctIndex: integer("correct_index").notNull(),
    explanation: text("explanation").notNull().default(""),
  },
  (t) => [index("test_questions_test_idx").on(t.testId, t.position)],
);

export type RecipientStatus = (typeof recipientStatuses)[number];

export type DomainResult = { id: number; name: string; percent: number; correct: number; questions: number };
export type RecipientResult = { percent: number; correct: number; questions: number; domains: DomainResult[] };

/** One person a test was sent to; `token` is the personal link (a capability, no account). */
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
    token: text("token").notNull(),
    status: text("status").$type<RecipientStatus>().notNull().default("sent"),
    /** Question ids in this recipient's shuffled order. */
    questionOrder: jsonb("question_order").$type<number[]>().notNull(),
    studentUserId: text("student_user_id").references(() => users.id, { onDelete: "set null" }),
    result: jsonb("result").$type<RecipientResult>(),
    percent: real("percent"),
    sentAt: timestamp("sent_at", { withTimezone: true }).notNull().defaultNow(),
    lastSentAt: timestamp("last_sent_at", { withTimezone: true }),
    startedAt: timestamp("started_at", { withTimezone: true }),
    completedAt: timestamp("completed_at", { withTimezone: true }),
    lastActivityAt: timestamp("last_activity_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("recipients_token_idx").on(t.token),
    uniqueIndex("recipients_test_email_idx").on(t.testId, t.email),
    index("recipients_student_idx").on(t.studentUserId),
    index("recipients_email_idx").on(t.email),
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
    optionIndex: integer("option_index").notNull(),
    answeredAt: timestamp("answered_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.recipientId, t.questionId] })],
);

export type Test = typeof tests.$inferSelect;
export type Recipient = typeof recipients.$inferSelect;
export type TestQuestion = typeof testQuestions.$inferSelect;
