import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { testQuestions } from "@/db/schema";
import { openTest, saveAnswer, startTest, type TakingView } from "@/lib/certification/taking/taking";
import { recipientByToken } from "./tokens";

/** Presses Start (as the page's button does) and reads the page: the questions as this recipient sees them. */
export async function startAndOpen(db: Db, token: string): Promise<TakingView> {
  await startTest(db, token);
  return (await openTest(db, token))!;
}

/** The token of a personal link ("http://…/t/{token}"). */
export const tokenOf = (link: string) => link.split("/t/")[1];

/**
 * Where the correct option of each question sits on this recipient's page (options may be
 * shuffled per recipient): read from the database, as a test may, never from the page.
 */
export async function correctPositions(db: Db, token: string): Promise<Map<number, number>> {
  const recipient = await recipientByToken(db, token);
  const questions = await db.select().from(testQuestions).where(eq(testQuestions.testId, recipient.testId));
  return new Map(
    questions.map((q) => {
      const order = recipient.optionOrders?.[String(q.id)] ?? q.options.map((_, index) => index);
      return [q.id, order.indexOf(q.correctIndex)];
    }),
  );
}

/** Starts and answers every question: right for the first `right` questions (in the recipient's order), wrong after. */
export async function answerAll(db: Db, token: string, right = Infinity): Promise<TakingView> {
  const view = await startAndOpen(db, token);
  const correct = await correctPositions(db, token);
  for (const [index, question] of view.questions.entries()) {
    const position = correct.get(question.id)!;
    await saveAnswer(db, token, { question_id: question.id, option: index < right ? position : (position + 1) % question.options.length });
  }
  return view;
}
