import { and, eq } from "drizzle-orm";
import type { Db } from "@/db";
import { answers, recipients, testDomains, testQuestions } from "@/db/schema";
import { answerKeyShown } from "@/lib/certification/catalog/catalog";
import { notFound } from "@/lib/kernel/errors";
import type { AnswerSheetView } from "./schemas";
import { findTest } from "@/lib/certification/tests/tests";
import { integrityRecords, integrityView } from "@/lib/certification/integrity/summary";
import { chooseCount, chosenOf, correctOf, isCorrect, type AnswerKey } from "@/lib/certification/catalog/question-type";

/**
 * One recipient's answer sheet (`GET /tests/{code}/recipients/{id}/answers`): every question
 * in the recipient's own order with the option chosen (or null), the right one and when it
 * was answered. Readable at any status, so a trainer can follow an attempt in progress. A
 * test of another workspace, or a recipient of another test, is a 404. For a test of the
 * shared catalog the right option and the explanation are null (`answer_key: false`): the
 * catalog's answer key is never shown in the trainer area; whether each answer given is right
 * still is.
 */
export async function answerSheet(db: Db, workspaceId: string, code: string, recipientId: number): Promise<AnswerSheetView> {
  const test = await findTest(db, workspaceId, code);
  const [recipient] = await db
    .select()
    .from(recipients)
    .where(and(eq(recipients.id, recipientId), eq(recipients.testId, test.id)));
  if (!recipient) throw notFound("Recipient");
  const [questionRows, domainRows, given, answerKey, integrity] = await Promise.all([
    db.select().from(testQuestions).where(eq(testQuestions.testId, test.id)),
    db.select({ id: testDomains.domainId, name: testDomains.name }).from(testDomains).where(eq(testDomains.testId, test.id)),
    db.select().from(answers).where(eq(answers.recipientId, recipient.id)),
    answerKeyShown(db, workspaceId, test.certificationId),
    integrityRecords(db, [recipient.id]),
  ]);
  const domainName = new Map(domainRows.map((domain) => [domain.id, domain.name]));
  const byId = new Map(questionRows.map((question) => [question.id, question]));
  const chosen = new Map(given.map((answer) => [answer.questionId, answer]));
  const sheet = recipient.questionOrder
    .map((id) => byId.get(id))
    .filter((question) => question !== undefined)
    .map((question, index) => {
      const answer = chosen.get(question.id);
      return {
        position: index + 1,
        question_id: question.id,
        domain: { id: question.domainId, name: domainName.get(question.domainId) ?? "" },
        prompt: question.prompt,
        options: question.options,
        ...sheetKind(question),
        chosen: answer ? chosenOf(answer) : null,
        correct_option: answerKey ? correctOf(question) : null,
        correct: answer !== undefined && isCorrect(question, chosenOf(answer)),
        answered_at: answer?.answeredAt.toISOString() ?? null,
        explanation: answerKey ? question.explanation : null,
      };
    });
  return {
    test: test.code,
    answer_key: answerKey,
    recipient: {
      id: recipient.id,
      email: recipient.email,
      name: recipient.name,
      status: recipient.status,
      started_at: recipient.startedAt?.toISOString() ?? null,
      completed_at: recipient.completedAt?.toISOString() ?? null,
    },
    questions: sheet.length,
    answered: sheet.filter((item) => item.chosen !== null).length,
    correct: sheet.filter((item) => item.correct).length,
    answers: sheet,
    integrity: integrityView(integrity.get(recipient.id)),
  };
}

/** A sheet item's `type` and `choose` (how many options the question asks for). */
const sheetKind = (question: AnswerKey) => ({ type: question.type, choose: chooseCount(question) });
