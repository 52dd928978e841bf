import { and, eq, isNotNull, isNull, ne, sql } from "drizzle-orm";
import { chosenOf, correctOf, isCorrect, optionsText } from "@/lib/certification/catalog/question-type";
import { createElement } from "react";
import type { Db } from "@/db";
import { answers, recipients, testQuestions, tests, workspaces, type Test } from "@/db/schema";
import { personalizedRenderer } from "@/lib/platform/email/personalize";
import { TestReminderEmail, testReminderSubject } from "@/lib/certification/emails/test-reminder";
import { TestResultEmail, testResultSubject } from "@/lib/certification/emails/test-result";
import { mailLocale, type Locale } from "@/lib/platform/i18n/locales";
import { translator } from "@/lib/platform/i18n/translator";
import { recipientLink } from "./links";
import { mailInRounds } from "./recipients";
import { answersVisible, testName } from "./settings";
import { settingsLines, utcDateTime } from "./settings-text";
import { queueEmail, queueEmails } from "@/lib/platform/pipeline/channels/email/queue";
import { workspaceSender } from "@/lib/platform/workspaces/sender";

/**
 * The e-mails that follow a test: the one reminder (reminder_after_hours) and the result
 * (send_result). Each runs as a scheduled step (lib/registry/certification-step-handlers.ts) and marks what it sent on
 * the recipient row in the transaction that queues the mail, so a step run twice (a retry, two
 * executors) sends nothing twice.
 */

/**
 * Reminds the test's recipients who were e-mailed at least reminder_after_hours ago, have
 * not completed and were not reminded yet — never from closes_at on. Recipients whose test
 * was not e-mailed (send_email: false) get no reminder: their links were shared by the
 * trainer, and the service does not write to them.
 */
export async function sendReminders(db: Db, testId: number): Promise<number> {
  return db.transaction(async (tx) => {
    const [test] = await tx.select().from(tests).where(eq(tests.id, testId));
    if (!test || test.reminderAfterHours === null) return 0;
    if (test.closesAt && Date.now() >= test.closesAt.getTime()) return 0;
    const [workspace] = await tx.select({ defaultLanguage: workspaces.defaultLanguage }).from(workspaces).where(eq(workspaces.id, test.workspaceId));
    const locale = mailLocale(test.language, workspace.defaultLanguage);
    const render = personalizedRenderer(TestReminderEmail, ["name", "link"]);
    const name = testName(test);
    const subject = testReminderSubject(locale, name);
    const settings = settingsLines(test, locale);
    const trainer = await workspaceSender(tx, test.workspaceId);
    // Marked in one statement (only their ids come back), then read, rendered and queued in
    // rounds (mailInRounds), so a test of thousands never holds all their e-mails at once; one
    // transaction still, so a failure sends none. A concurrent run waits on the row locks and
    // then finds them reminded.
    const due = await tx
      .update(recipients)
      .set({ remindedAt: sql`now()` })
      .where(
        and(
          eq(recipients.testId, test.id),
          ne(recipients.status, "completed"),
          isNull(recipients.remindedAt),
          isNotNull(recipients.lastSentAt),
          sql`${recipients.sentAt} <= now() - make_interval(hours => ${test.reminderAfterHours})`,
        ),
      )
      .returning({ id: recipients.id });
    await mailInRounds(
      tx,
      due.map((row) => row.id),
      async (round) => {
        await queueEmails(
          tx,
          await Promise.all(
            round.map(async (recipient) => {
              const link = recipientLink(recipient);
              return {
                kind: "test_reminder",
                workspaceId: test.workspaceId,
                recipientId: recipient.id,
                to: recipient.email,
                subject,
                ...(await render({ locale, name: recipient.name, testName: name, started: recipient.status === "started", settings, link, trainer })),
                links: [link],
              };
            }),
          ),
        );
      },
    );
    return due.length;
  });
}

/**
 * E-mails a recipient who completed their result, once. The correct answers and
 * explanations are in it only when show_answers allows them now (after_submit; after_close
 * once the test has closed); otherwise it says when, or that they are not shown.
 */
export async function sendResultEmail(db: Db, recipientId: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [recipient] = await tx
      .update(recipients)
      .set({ resultEmailedAt: sql`now()` })
      .where(and(eq(recipients.id, recipientId), eq(recipients.status, "completed"), isNull(recipients.resultEmailedAt)))
      .returning();
    if (!recipient?.result) return false;
    const [{ test, defaultLanguage }] = await tx
      .select({ test: tests, defaultLanguage: workspaces.defaultLanguage })
      .from(tests)
      .innerJoin(workspaces, eq(workspaces.id, tests.workspaceId))
      .where(eq(tests.id, recipient.testId));
    const locale = mailLocale(test.language, defaultLanguage);
    const result = recipient.result;
    const visible = answersVisible(test, new Date());
    let review = null;
    if (visible) {
      const [questionRows, given] = await Promise.all([
        tx.select().from(testQuestions).where(eq(testQuestions.testId, test.id)),
        tx.select().from(answers).where(eq(answers.recipientId, recipient.id)),
      ]);
      const byId = new Map(questionRows.map((q) => [q.id, q]));
      const chosen = new Map(given.map((a) => [a.questionId, chosenOf(a)]));
      review = recipient.questionOrder
        .map((id) => byId.get(id))
        .filter((q) => q !== undefined)
        .map((q) => {
          const pick = chosen.get(q.id);
          return {
            prompt: q.prompt,
            chosen: pick === undefined ? null : optionsText(q.options, pick),
            correct: optionsText(q.options, correctOf(q)),
            right: isCorrect(q, pick),
            explanation: q.explanation,
          };
        });
    }
    const reviewNote = visible ? null : withheldReviewNote(test, locale);
    const name = testName(test);
    const link = recipientLink(recipient);
    await queueEmail(tx, {
      kind: "test_result",
      workspaceId: test.workspaceId,
      recipientId: recipient.id,
      to: recipient.email,
      subject: testResultSubject(locale, name),
      react: createElement(TestResultEmail, {
        locale,
        name: recipient.name,
        testName: name,
        percent: result.percent,
        correct: result.correct,
        questions: result.questions,
        passed: result.passed ?? null,
        passMark: test.passMark,
        domains: result.domains.map((d) => ({ name: d.name, percent: d.percent })),
        review,
        reviewNote,
        link,
        certificateUrl: result.certificateUrl ?? null,
      }),
      links: result.certificateUrl ? [link, result.certificateUrl] : [link],
    });
    return true;
  });
}

/** What the result e-mail says instead of the answers: from when they can be seen (after_close), or that they are not shown. */
function withheldReviewNote(test: Pick<Test, "showAnswers" | "closesAt">, locale: Locale): string {
  const t = translator(locale, "emails");
  return test.showAnswers === "after_close" && test.closesAt
    ? t("result.reviewAfterClose", { when: utcDateTime(test.closesAt, locale) })
    : t("result.reviewNever");
}
