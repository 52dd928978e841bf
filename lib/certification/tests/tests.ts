import { and, asc, desc, eq, gt, inArray, ne, sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db";
import { transactionWithRetry } from "@/db/transaction";
import { certifications, domains, questions, recipients, testDomains, testQuestions, tests, workspaces, type Recipient, type Test } from "@/db/schema";
import { offsetOf, page, type Page, type Paging } from "@/lib/kernel/paging";
import { holdCertification, visibleTo } from "@/lib/certification/catalog/catalog";
import { AppError, conflict, invalidFields, notFound } from "@/lib/kernel/errors";
import { postgresWindowLimiter } from "@/lib/platform/ratelimit/window";
import { lockWorkspace } from "@/lib/platform/workspaces/lock";
import { shuffle } from "./draw";
import { isTestCodeShaped, newTestCode } from "./links";
import { deliveryFor, emailProblemCount, latestEmailDeliveries } from "./email-status";
import { answeredBy, answeredCounts } from "./progress";
import { insertRecipients, invitationMailer, mailInRounds, queueInvitations, toRecipientView, type NewRecipient } from "./recipients";
import { creationRules, duplicateEmails } from "./rules";
import { type NewRecipients, type NewTest, type RecipientView, type ResendAllRequest, type ResendAllResult, type TestSummaryView, type TestView } from "./schemas";
import { settingsColumns, settingsView } from "./settings";
import { utcDateTime } from "./settings-text";
import { classRecipients } from "./class-recipients";
import { integrityFlagged, integrityRecords } from "@/lib/certification/integrity/summary";

/**
 * Creates a test: checks every field first and reports all that are wrong at once, then,
 * in one transaction, draws the questions (frozen copies; with draw per_recipient every question
 * of the chosen domains, the pool each recipient's own set is drawn from), adds the recipients
 * within the plan's seats and queues their e-mails. The transaction locks the workspace before its
 * first insert (the one lock order, lib/platform/workspaces/lock.ts) and is re-run whole on a
 * deadlock or serialization failure.
 */
export async function createTest(db: Db, workspaceId: string, parsed: NewTest): Promise<TestView> {
  const { fields, plan } = creationRules(parsed);
  const [certification] = await db
    .select()
    .from(certifications)
    .where(and(eq(certifications.id, parsed.certification_id), visibleTo(workspaceId)));
  if (!certification) fields.push({ field: "certification_id", message: "No such certification in your catalog." });
  const seenDomains = new Set(plan.map((entry) => entry.domainId));

  const available = new Map<number, { name: string; position: number; questions: number }>();
  if (certification && plan.length) {
    const rows = await db
      .select({
        id: domains.id,
        name: domains.name,
        position: domains.position,
        questions: sql<number>`(select count(*)::int from ${questions} q where q.domain_id = "domains"."id")`,
      })
      .from(domains)
      .where(and(eq(domains.certificationId, certification.id), inArray(domains.id, [...seenDomains])));
    for (const row of rows) available.set(row.id, row);
    for (const entry of plan) {
      const domain = available.get(entry.domainId);
      if (!domain) fields.push({ field: entry.field, message: `Domain ${entry.domainId} is not a domain of this certification.` });
      else if (domain.questions < entry.count) {
        fields.push({ field: entry.field, message: `${domain.name} has ${domain.questions} questions; ${entry.count} were asked for.` });
      }
    }
  }

  let people: NewRecipient[] = parsed.recipients ?? [];
  if (parsed.class_id) {
    const sentToClass = await classRecipients(db, workspaceId, parsed.class_id, certification?.id);
    fields.push(...sentToClass.fields);
    people = sentToClass.people;
  }
  if (fields.length) throw invalidFields(fields);

  const code = await transactionWithRetry(db, async (tx) => {
    const workspace = await lockWorkspace(tx, workspaceId);
    await holdCertification(tx, workspaceId, certification.id);
    const total = plan.reduce((sum, entry) => sum + entry.count, 0);
    const code = newTestCode();
    const [test] = await tx
      .insert(tests)
      .values({
        code,
        workspaceId,
        certificationId: certification.id,
        certificationName: certification.name,
        questionCount: total,
        classId: parsed.class_id ?? null,
        ...settingsColumns(parsed, certification.name),
      })
      .returning();
    await tx.insert(testDomains).values(
      plan.map((entry, position) => ({
        testId: test.id,
        domainId: entry.domainId,
        name: available.get(entry.domainId)!.name,
        position,
        questions: entry.count,
      })),
    );
    let position = 0;
    for (const entry of plan) {
      const domainQuestions = tx.select().from(questions).where(eq(questions.domainId, entry.domainId)).orderBy(sql`random()`);
      // per_recipient: the whole domain is copied, the pool each recipient's own draw is taken from (insertRecipients).
      const drawn = await (parsed.draw === "per_recipient" ? domainQuestions : domainQuestions.limit(entry.count));
      await tx.insert(testQuestions).values(
        shuffle(drawn).map((question) => ({
          testId: test.id,
          domainId: entry.domainId,
          position: position++,
          prompt: question.prompt,
          options: question.options,
          type: question.type,
          correctIndex: question.correctIndex,
          correctIndexes: question.correctIndexes,
          explanation: question.explanation,
        })),
      );
    }
    await insertRecipients(tx, workspace, test, people, { sendEmail: parsed.send_email });
    return code;
  });
  return getTest(db, workspaceId, code);
}

const counts = {
  recipients: sql<number>`(select count(*)::int from ${recipients} r where r.test_id = "tests"."id")`,
  started: sql<number>`(select count(*)::int from ${recipients} r where r.test_id = "tests"."id" and r.status <> 'sent')`,
  completed: sql<number>`(select count(*)::int from ${recipients} r where r.test_id = "tests"."id" and r.status = 'completed')`,
};

/** The domains of each given test, in their order. */
export async function domainsOf(db: Db, testIds: number[]) {
  if (testIds.length === 0) return new Map<number, { id: number; name: string; questions: number }[]>();
  const rows = await db.select().from(testDomains).where(inArray(testDomains.testId, testIds)).orderBy(asc(testDomains.position));
  const byTest = new Map<number, { id: number; name: string; questions: number }[]>();
  for (const row of rows) {
    const list = byTest.get(row.testId) ?? [];
    list.push({ id: row.domainId, name: row.name, questions: row.questions });
    byTest.set(row.testId, list);
  }
  return byTest;
}

/** The workspace's tests, newest first, with recipient, started and completed counts. */
export async function listTests(db: Db, workspaceId: string, paging: Paging): Promise<Page<TestSummaryView>> {
  const where = eq(tests.workspaceId, workspaceId);
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({ test: tests, ...counts })
      .from(tests)
      .where(where)
      .orderBy(desc(tests.createdAt), desc(tests.id))
      .limit(paging.per_page)
      .offset(offsetOf(paging)),
    db.select({ total: sql<number>`count(*)::int` }).from(tests).where(where),
  ]);
  const byTest = await domainsOf(db, rows.map((row) => row.test.id));
  return page(
    rows.map(({ test, recipients: recipientCount, started, completed }) => ({
      ...summaryOf(test, byTest.get(test.id) ?? []),
      recipients: recipientCount,
      started,
      completed,
    })),
    paging,
    total,
  );
}

function summaryOf(test: Test, domainList: { id: number; name: string; questions: number }[]) {
  return {
    code: test.code,
    ...settingsView(test),
    certification_id: test.certificationId,
    certification: test.certificationName,
    questions: test.questionCount,
    domains: domainList,
    class_id: test.classId,
    created_at: test.createdAt.toISOString(),
  };
}

export async function findTest(db: Db, workspaceId: string, code: string): Promise<Test> {
  if (!isTestCodeShaped(code)) throw notFound("Test");
  // Codes are upper case; accept them typed in lower case too.
  const [test] = await db.select().from(tests).where(and(eq(tests.code, code.toUpperCase()), eq(tests.workspaceId, workspaceId)));
  if (!test) throw notFound("Test");
  return test;
}

/**
 * The test, its domains and every recipient with status and, once completed, result. With
 * `paging` (`?recipients_page=&recipients_per_page=`), `recipients` is that page only (in id
 * order) and the answer carries `recipients_pagination` and `email_problems`: what a large
 * test's page reads instead of every recipient.
 */
export async function getTest(db: Db, workspaceId: string, code: string, paging?: Paging): Promise<TestView> {
  const test = await findTest(db, workspaceId, code);
  const [byTest, [tally], people] = await Promise.all([
    domainsOf(db, [test.id]),
    db
      .select({
        total: sql<number>`count(*)::int`,
        started: sql<number>`(count(*) filter (where ${recipients.status} <> 'sent'))::int`,
        completed: sql<number>`(count(*) filter (where ${recipients.status} = 'completed'))::int`,
      })
      .from(recipients)
      .where(eq(recipients.testId, test.id)),
    readRecipients(db, test.id, paging ? { offset: offsetOf(paging), limit: paging.per_page } : {}),
  ]);
  const view: TestView = {
    ...summaryOf(test, byTest.get(test.id) ?? []),
    started: Number(tally.started),
    completed: Number(tally.completed),
    recipients: people,
  };
  if (!paging) return view;
  return {
    ...view,
    recipients_pagination: { page: paging.page, per_page: paging.per_page, total: Number(tally.total) },
    email_problems: await emailProblemCount(db, test.id),
  };
}

/** What a recipient's view is made of: never the question order or option orders (the heavy columns). */
const viewColumns = {
  id: recipients.id,
  email: recipients.email,
  name: recipients.name,
  status: recipients.status,
  tokenSealed: recipients.tokenSealed,
  sentAt: recipients.sentAt,
  lastSentAt: recipients.lastSentAt,
  startedAt: recipients.startedAt,
  completedAt: recipients.completedAt,
  result: recipients.result,
  extraTimeMinutes: recipients.extraTimeMinutes,
  deadlineAt: recipients.deadlineAt,
};

/** A window of a test's recipients in id order: all of them, `offset`/`limit`, or (keyset, for streaming) those after `afterId`. */
export type RecipientWindow = { offset?: number; limit?: number; afterId?: number };

/**
 * A test's recipients as the API shows them, in id order, in a fixed number of queries
 * whatever their number: the rows (without the heavy columns), then their latest e-mails,
 * answer counts and integrity records, each read for the same window by a subquery (not a
 * list of thousands of ids).
 */
export async function readRecipients(db: Db, testId: number, window: RecipientWindow): Promise<RecipientView[]> {
  const where = and(eq(recipients.testId, testId), window.afterId !== undefined ? gt(recipients.id, window.afterId) : undefined);
  let rows = db.select(viewColumns).from(recipients).where(where).orderBy(asc(recipients.id)).$dynamic();
  if (window.limit !== undefined) rows = rows.limit(window.limit);
  if (window.offset) rows = rows.offset(window.offset);
  const people = await rows;
  if (people.length === 0) return [];
  // The window read again inside each query: one statement each, served by the (test_id, …) indexes.
  const ids =
    window.limit === undefined && window.afterId === undefined
      ? db.select({ id: recipients.id }).from(recipients).where(eq(recipients.testId, testId))
      : people.map((p) => p.id);
  const [deliveries, answered, integrity] = await Promise.all([latestEmailDeliveries(db, "recipient", ids), answeredCounts(db, ids), integrityRecords(db, ids)]);
  return people.map((p) => toRecipientView(p, deliveryFor(deliveries, p.id), answeredBy(answered, p.id), integrityFlagged(integrity.get(p.id))));
}

/** Sends the test to more people, same rules as creation; once the test has closed → 409. */
export async function addRecipients(db: Db, workspaceId: string, code: string, parsed: NewRecipients): Promise<RecipientView[]> {
  const duplicates = duplicateEmails(parsed.recipients);
  if (duplicates.length) throw invalidFields(duplicates);
  const test = await findTest(db, workspaceId, code);
  // Nobody could start it any more (Start is refused from closes_at on): refuse before anyone is e-mailed a dead link.
  if (test.closesAt && test.closesAt <= new Date()) throw conflict(`This test closed at ${utcDateTime(test.closesAt)}: recipients added now could not start it.`);
  const created = await transactionWithRetry(db, async (tx) =>
    insertRecipients(tx, await lockWorkspace(tx, workspaceId), test, parsed.recipients, { sendEmail: parsed.send_email }),
  );
  const deliveries = await latestEmailDeliveries(db, "recipient", created.map((r) => r.id));
  // Just added: nobody has answered yet.
  return created.map((r) => toRecipientView(r, deliveryFor(deliveries, r.id), 0));
}

/** A fresh e-mail with the same personal link; a completed recipient → 409. */
export async function resendRecipient(db: Db, workspaceId: string, code: string, recipientId: number): Promise<RecipientView> {
  const test = await findTest(db, workspaceId, code);
  return transactionWithRetry(db, async (tx) => {
    const recipient = await lockUncompletedRecipient(tx, test.id, recipientId, (email) => `${email} has already completed this test.`);
    const [workspace] = await tx.select({ name: workspaces.name, defaultLanguage: workspaces.defaultLanguage }).from(workspaces).where(eq(workspaces.id, workspaceId));
    const now = new Date();
    // The first e-mail of a link handed to the caller (send_email: false) is its real send: sent_at (and a reminder's clock) start here.
    const sent = recipient.lastSentAt ? { lastSentAt: now } : { lastSentAt: now, sentAt: now };
    const [updated] = await tx.update(recipients).set(sent).where(eq(recipients.id, recipient.id)).returning();
    await queueInvitations(tx, test, workspace, [updated]);
    return recipientViewIn(tx, updated);
  });
}

/** At most one resend to all per test per sliding window: each can e-mail every recipient of the test. */
export const RESEND_ALL_LIMIT = { perTest: 1, windowMs: 600_000 } as const;

/**
 * E-mails the test again, as resendRecipient does for one (the invitation, the same personal
 * link; last_sent_at set, and sent_at too for a link handed over and never e-mailed), to every
 * recipient who has not completed (`not_completed`) or has not started (`sent`). Set-based: one
 * statement marks them and returns their ids, then mailInRounds reads, renders and queues them
 * 500 at a time, all in one transaction (a failure e-mails nobody). A recipient who completes
 * meanwhile is skipped (the statement re-checks a row it waited for). At most
 * RESEND_ALL_LIMIT per test (429 with Retry-After): one asked for while another runs is refused
 * at once, without waiting for it; one that e-mails nobody is not counted. A test that has
 * closed → 409, as for new recipients.
 */
export async function resendToAll(db: Db, workspaceId: string, code: string, input: ResendAllRequest): Promise<ResendAllResult> {
  const test = await findTest(db, workspaceId, code);
  if (test.closesAt && test.closesAt <= new Date()) throw conflict(`This test closed at ${utcDateTime(test.closesAt)}: nobody could start it any more.`);
  const due = and(eq(recipients.testId, test.id), input.status === "sent" ? eq(recipients.status, "sent") : ne(recipients.status, "completed"));
  return transactionWithRetry(db, async (tx) => {
    await refuseConcurrentResendToAll(tx, test.id);
    const [tally] = await tx
      .select({ due: sql<number>`(count(*) filter (where ${due}))::int`, skipped: sql<number>`(count(*) filter (where not (${due})))::int` })
      .from(recipients)
      .where(eq(recipients.testId, test.id));
    if (Number(tally.due) === 0) return { queued: 0, skipped: Number(tally.skipped) };
    await admitResendToAll(tx, test.id);
    const [workspace] = await tx.select({ defaultLanguage: workspaces.defaultLanguage }).from(workspaces).where(eq(workspaces.id, workspaceId));
    const marked = await tx
      .update(recipients)
      .set({ lastSentAt: sql`now()`, sentAt: sql`case when ${recipients.lastSentAt} is null then now() else ${recipients.sentAt} end` })
      .where(due)
      .returning({ id: recipients.id });
    await mailInRounds(
      tx,
      marked.map((row) => row.id),
      await invitationMailer(tx, test, workspace),
    );
    // Due when counted but completed before the statement reached them: skipped too.
    return { queued: marked.length, skipped: Number(tally.skipped) + Math.max(0, Number(tally.due) - marked.length) };
  });
}

/**
 * A second resend to all of the same test while one runs is refused at once (a
 * transaction-level advisory lock, released at commit or rollback) rather than waiting for it,
 * holding a connection, only to be refused by the limit after.
 */
async function refuseConcurrentResendToAll(tx: Db, testId: number): Promise<void> {
  const [{ locked }] = rowsOf<{ locked: boolean }>(await tx.execute(sql`select pg_try_advisory_xact_lock(hashtext('tests.resend_all'), ${testId}) as locked`));
  if (!locked) throw resendToAllLimited(Math.ceil(RESEND_ALL_LIMIT.windowMs / 1000), "A resend to all of this test is running now.");
}

/** Counts this resend to all against the test's window (only if it commits); refused → 429 with Retry-After. */
async function admitResendToAll(tx: Db, testId: number): Promise<void> {
  const decision = await postgresWindowLimiter(tx).hit([{ key: `tests:resend-all:${testId}`, limit: RESEND_ALL_LIMIT.perTest, windowMs: RESEND_ALL_LIMIT.windowMs }]);
  if (!decision.allowed) throw resendToAllLimited(decision.retryAfter, "This test was resent to all recently.");
}

const resendToAllLimited = (retryAfter: number, what: string) =>
  new AppError(
    "rate_limit_exceeded",
    `${what} At most ${RESEND_ALL_LIMIT.perTest} resend to all per test every ${RESEND_ALL_LIMIT.windowMs / 60_000} minutes; retry after ${retryAfter} s, or resend to one recipient.`,
    { retryAfter },
  );

/**
 * The test's recipient `recipientId` under its row lock (the lock Start, a submit and the
 * deadline step take, so a change and a completion never cross), in the caller's transaction.
 * Unknown → 404; completed → 409 with `completed(email)`.
 */
export async function lockUncompletedRecipient(tx: Db, testId: number, recipientId: number, completed: (email: string) => string): Promise<Recipient> {
  const [recipient] = await tx
    .select()
    .from(recipients)
    .where(and(eq(recipients.id, recipientId), eq(recipients.testId, testId)))
    .for("update");
  if (!recipient) throw notFound("Recipient");
  if (recipient.status === "completed") throw conflict(completed(recipient.email));
  return recipient;
}

/** One recipient as the API shows it (its latest e-mail, answers given, integrity flag), read through `db` (a transaction sees its own writes). */
export async function recipientViewIn(db: Db, recipient: Recipient): Promise<RecipientView> {
  const [deliveries, answered, integrity] = await Promise.all([
    latestEmailDeliveries(db, "recipient", [recipient.id]),
    answeredCounts(db, [recipient.id]),
    integrityRecords(db, [recipient.id]),
  ]);
  return toRecipientView(recipient, deliveryFor(deliveries, recipient.id), answeredBy(answered, recipient.id), integrityFlagged(integrity.get(recipient.id)));
}

