import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { transactionWithRetry } from "@/db/transaction";
import { certifications, domains, questions, recipients, testDomains, testQuestions, tests, workspaces, type Recipient, type Test } from "@/db/schema";
import { offsetOf, page, type Page, type Paging } from "@/lib/kernel/paging";
import { holdCertification, visibleTo } from "@/lib/certification/catalog/catalog";
import { conflict, invalidFields, notFound } from "@/lib/kernel/errors";
import { lockWorkspace } from "@/lib/platform/workspaces/lock";
import { shuffle } from "./draw";
import { isTestCodeShaped, newTestCode } from "./links";
import { deliveryFor, latestEmailDeliveries } from "./email-status";
import { answeredBy, answeredCounts } from "./progress";
import { insertRecipients, queueInvitations, toRecipientView, type NewRecipient } from "./recipients";
import { creationRules, duplicateEmails } from "./rules";
import { type NewRecipients, type NewTest, type RecipientView, type TestSummaryView, type TestView } from "./schemas";
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

async function domainsOf(db: Db, testIds: number[]) {
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

/** The test, its domains and every recipient with status and, once completed, result. */
export async function getTest(db: Db, workspaceId: string, code: string): Promise<TestView> {
  const test = await findTest(db, workspaceId, code);
  const [byTest, people] = await Promise.all([
    domainsOf(db, [test.id]),
    db.select().from(recipients).where(eq(recipients.testId, test.id)).orderBy(asc(recipients.id)),
  ]);
  const started = people.filter((p) => p.status !== "sent").length;
  const completed = people.filter((p) => p.status === "completed").length;
  const ids = people.map((p) => p.id);
  const [deliveries, answered, integrity] = await Promise.all([latestEmailDeliveries(db, "recipient", ids), answeredCounts(db, ids), integrityRecords(db, ids)]);
  return {
    ...summaryOf(test, byTest.get(test.id) ?? []),
    started,
    completed,
    recipients: people.map((p) => toRecipientView(p, deliveryFor(deliveries, p.id), answeredBy(answered, p.id), integrityFlagged(integrity.get(p.id)))),
  };
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

