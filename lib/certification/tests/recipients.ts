import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { recipients, testDomains, testQuestions, type OptionOrders, type Recipient, type Test, type Workspace } from "@/db/schema";
import { personalizedRenderer } from "@/lib/platform/email/personalize";
import { TestInvitationEmail, testInvitationSubject } from "@/lib/certification/emails/test-invitation";
import { mailLocale } from "@/lib/platform/i18n/locales";
import { AppError, planLimit } from "@/lib/kernel/errors";
import { planLimits } from "@/lib/platform/workspaces/plans";
import { newToken, storedToken } from "@/lib/platform/security/tokens";
import { drawForRecipient, shuffle } from "./draw";
import { recipientLink } from "./links";
import type { EmailDeliveryView, RecipientView } from "./schemas";
import { resultViewOf, testName } from "./settings";
import { settingsLines } from "./settings-text";
import { queueEmails } from "@/lib/platform/pipeline/channels/email/queue";
import { scheduleStep } from "@/lib/certification/steps";
import { workspaceSender } from "@/lib/platform/workspaces/sender";

export type NewRecipient = { email: string; name: string; studentUserId?: string | null; extra_time_minutes?: number };

/**
 * Adds recipients to a test inside the caller's transaction: checks the plan's seats, gives
 * each a token (stored hashed and sealed), a shuffled order of the questions (with draw per_recipient: their
 * own set, drawn from the test's pool with each domain's count) and (with shuffle_options) of each
 * of their questions' options, their extra time, queues their e-mails unless `sendEmail` is false, and with
 * reminder_after_hours schedules the reminder of this batch.
 * `workspace` is the test's workspace as returned by `lockWorkspace(tx, …)`, which the
 * caller took first in this transaction: the seat count below is exact only under it.
 */
export async function insertRecipients(
  tx: Db,
  workspace: Workspace,
  test: Test,
  people: NewRecipient[],
  options: { sendEmail: boolean },
): Promise<Recipient[]> {
  const seats = planLimits(workspace.plan).seats;
  const [{ existing }] = await tx
    .select({ existing: sql<number>`count(*)::int` })
    .from(recipients)
    .where(eq(recipients.testId, test.id));
  if (existing + people.length > seats) {
    throw planLimit(
      `The ${workspace.plan} plan allows ${seats} recipients per test; this test has ${existing} and you asked for ${people.length} more.`,
    );
  }
  const already = await tx
    .select({ email: recipients.email })
    .from(recipients)
    .where(and(eq(recipients.testId, test.id), inArray(recipients.email, people.map((p) => p.email))));
  if (already.length) {
    throw new AppError("validation_failed", "Some recipients already have this test.", {
      fields: already.map(({ email }) => ({
        field: `recipients.${people.findIndex((p) => p.email === email)}.email`,
        message: `${email} already received this test; resend it instead.`,
      })),
    });
  }
  const questionRows = await tx
    .select({ id: testQuestions.id, domainId: testQuestions.domainId, options: sql<number>`jsonb_array_length(${testQuestions.options})` })
    .from(testQuestions)
    .where(eq(testQuestions.testId, test.id))
    .orderBy(asc(testQuestions.position));
  const questionIds = questionRows.map((row) => row.id);
  const questionOrderFor = await questionDraw(tx, test, questionRows);

  // One mailer for every chunk: the invitation is rendered once for the whole batch.
  const mail = options.sendEmail ? await invitationMailer(tx, test, workspace) : undefined;
  const created: Recipient[] = [];
  for (let i = 0; i < people.length; i += 500) {
    const chunk = people.slice(i, i + 500).map((person) => ({
      testId: test.id,
      workspaceId: test.workspaceId,
      email: person.email,
      name: person.name,
      ...storedToken("recipients.token", newToken()),
      ...questionsOf(questionOrderFor ? questionOrderFor() : shuffle(questionIds), questionRows, test.shuffleOptions),
      extraTimeMinutes: person.extra_time_minutes ?? 0,
      studentUserId: person.studentUserId ?? null,
      lastSentAt: options.sendEmail ? new Date() : null,
    }));
    const inserted = await tx.insert(recipients).values(chunk).returning();
    // Each chunk's e-mails queued with it: a class of thousands never holds all its invitations at once.
    if (mail) await mail(inserted);
    created.push(...inserted);
  }
  if (options.sendEmail) await scheduleReminder(tx, test);
  return created;
}

/**
 * A `per_recipient` test's draw: a function giving each call a new set (drawForRecipient: each
 * domain's count from test_domains, out of its pool in test_questions); undefined for `per_test`.
 */
async function questionDraw(tx: Db, test: Test, pool: { id: number; domainId: number }[]): Promise<(() => number[]) | undefined> {
  if (test.draw !== "per_recipient") return undefined;
  const domainRows = await tx.select({ domainId: testDomains.domainId, questions: testDomains.questions }).from(testDomains).where(eq(testDomains.testId, test.id)).orderBy(asc(testDomains.position));
  const pools = new Map<number, number[]>();
  for (const question of pool) pools.set(question.domainId, [...(pools.get(question.domainId) ?? []), question.id]);
  const counts = new Map(domainRows.map((row) => [row.domainId, row.questions]));
  return () => drawForRecipient(pools, counts);
}

/** A recipient's question order and the option orders of those questions only. */
function questionsOf(order: number[], questionRows: { id: number; options: number }[], shuffleOptions: boolean) {
  const mine = new Set(order);
  return { questionOrder: order, optionOrders: optionOrdersFor(questionRows.filter((question) => mine.has(question.id)), shuffleOptions) };
}

/**
 * Each question's options in this recipient's order (`order[shown]` = the option's index in
 * the question); the identity when the test does not shuffle. Stored on the recipient, so the
 * page and the answer route map positions without another read.
 */
function optionOrdersFor(questions: { id: number; options: number }[], shuffleOptions: boolean): OptionOrders {
  return Object.fromEntries(
    questions.map((question) => {
      const identity = Array.from({ length: question.options }, (_, index) => index);
      return [String(question.id), shuffleOptions ? shuffle(identity) : identity];
    }),
  );
}

/**
 * The reminder of the recipients just e-mailed: one step, due reminder_after_hours from now,
 * unless that is at or after closes_at (no reminder is sent then). The step reminds every
 * recipient of the test then due and not yet reminded (lib/certification/tests/follow-up.ts), so a step
 * per batch, never one per recipient.
 */
async function scheduleReminder(tx: Db, test: Test): Promise<void> {
  if (test.reminderAfterHours === null) return;
  const due = new Date(Date.now() + test.reminderAfterHours * 3_600_000);
  if (test.closesAt && due >= test.closesAt) return;
  await scheduleStep(tx, test.workspaceId, "test.reminder", { testId: test.id }, due);
}

/** The workspace as its recipients' e-mails need it: its default language (an `auto` test's e-mails); who sent the test is read here (workspaceSender). */
export type MailingWorkspace = Pick<Workspace, "defaultLanguage">;

/** The columns of a recipient an e-mail to them needs (its name, address and link; its status for the reminder's wording). */
export type MailedRecipient = Pick<Recipient, "id" | "email" | "name" | "status" | "tokenSealed">;
const mailedColumns = { id: recipients.id, email: recipients.email, name: recipients.name, status: recipients.status, tokenSealed: recipients.tokenSealed };

/** Recipients read, rendered and queued per round of mailInRounds. */
export const MAIL_ROUND = 500;

/**
 * Mails the recipients `ids` MAIL_ROUND at a time, in id order: each round's rows are read
 * (only what an e-mail needs) and handed to `queue`, which renders and queues their e-mails in
 * the caller's transaction. A mailing to thousands (the reminder, a resend to all) never holds
 * all their rows or e-mails at once, and stays all-or-nothing.
 */
export async function mailInRounds(tx: Db, ids: readonly number[], queue: (round: MailedRecipient[]) => Promise<void>): Promise<void> {
  const sorted = [...ids].sort((a, b) => a - b);
  for (let from = 0; from < sorted.length; from += MAIL_ROUND) {
    const round = await tx
      .select(mailedColumns)
      .from(recipients)
      .where(inArray(recipients.id, sorted.slice(from, from + MAIL_ROUND)))
      .orderBy(asc(recipients.id));
    await queue(round);
  }
}

/**
 * Queues the invitation of each of `people`, in the test's language (an `auto` test: the
 * workspace's default, read by the caller in this transaction with its name).
 */
export async function queueInvitations(tx: Db, test: Test, workspace: MailingWorkspace, people: MailedRecipient[]): Promise<void> {
  await (await invitationMailer(tx, test, workspace))(people);
}

/**
 * What queues the test's invitation to some of its recipients, called once per batch: what
 * every invitation shares (the sender, the settings' lines) is read once, and the invitation
 * rendered once, each recipient's name and link filled in; the renderer (and what it caches)
 * lives as long as the mailer.
 */
export async function invitationMailer(tx: Db, test: Test, workspace: MailingWorkspace): Promise<(people: MailedRecipient[]) => Promise<void>> {
  const locale = mailLocale(test.language, workspace.defaultLanguage);
  const renderInvitation = personalizedRenderer(TestInvitationEmail, ["name", "link"]);
  const shared = {
    locale,
    testName: testName(test),
    certification: test.certificationName,
    questions: test.questionCount,
    settings: settingsLines(test, locale),
    trainer: await workspaceSender(tx, test.workspaceId),
  };
  const subject = testInvitationSubject(locale, shared.testName);
  return async (people) => {
    const emails = await Promise.all(
      people.map(async (recipient) => {
        const props = { ...shared, name: recipient.name, link: recipientLink(recipient) };
        return {
          kind: "test_invitation",
          workspaceId: test.workspaceId,
          recipientId: recipient.id,
          to: recipient.email,
          subject,
          ...(await renderInvitation(props)),
          links: [props.link],
        };
      }),
    );
    await queueEmails(tx, emails);
  };
}

/** The columns of a recipient its view is made of. */
export type RecipientViewRow = Pick<
  Recipient,
  "id" | "email" | "name" | "status" | "tokenSealed" | "sentAt" | "lastSentAt" | "startedAt" | "completedAt" | "result" | "extraTimeMinutes" | "deadlineAt"
>;

/**
 * The recipient as the API shows it; `emailDelivery` is the latest e-mail's view
 * (email-status.ts), `answered` how many questions they answered (progress.ts), `integrityFlagged`
 * whether their integrity record saw something (lib/certification/integrity/summary.ts).
 */
export function toRecipientView(recipient: RecipientViewRow, emailDelivery: EmailDeliveryView, answered: number, integrityFlagged = false): RecipientView {
  return {
    id: recipient.id,
    email: recipient.email,
    name: recipient.name,
    status: recipient.status,
    link: recipientLink(recipient),
    // Never e-mailed (send_email: false): the link went to the caller, so no send time to show.
    sent_at: recipient.lastSentAt ? recipient.sentAt.toISOString() : null,
    last_emailed_at: recipient.lastSentAt?.toISOString() ?? null,
    started_at: recipient.startedAt?.toISOString() ?? null,
    completed_at: recipient.completedAt?.toISOString() ?? null,
    ...(recipient.status === "completed" && recipient.result
      ? {
          result: resultViewOf(recipient.result),
        }
      : {}),
    answered,
    email_delivery: emailDelivery,
    extra_time_minutes: recipient.extraTimeMinutes,
    deadline: recipient.deadlineAt?.toISOString() ?? null,
    integrity_flagged: integrityFlagged,
  };
}
