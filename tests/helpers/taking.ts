import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { testQuestions } from "@/db/schema";
import { openTest, saveAnswer, startTest, type TakingView } from "@/lib/certification/taking/taking";
import type { AnswerInput } from "@/lib/certification/tests/schemas";
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
 * shuffled per recipient): read from the database, as a test may, never from the page. On a
 * multiple-response question: the first right option's position (see `rightAnswers` for the set).
 */
export async function correctPositions(db: Db, token: string): Promise<Map<number, number>> {
  const right = await rightAnswers(db, token);
  return new Map([...right].map(([id, value]) => [id, typeof value === "number" ? value : value[0]]));
}

/** The right answer of each question as positions on this recipient's page: one (single) or the set, ascending (multiple). */
export async function rightAnswers(db: Db, token: string): Promise<Map<number, number | number[]>> {
  const recipient = await recipientByToken(db, token);
  const questions = await db.select().from(testQuestions).where(eq(testQuestions.testId, recipient.testId));
  return new Map(
    questions.map((q) => {
      const order = recipient.optionOrders?.[String(q.id)] ?? q.options.map((_, index) => index);
      const value = q.type === "multiple" && q.correctIndexes ? q.correctIndexes.map((index) => order.indexOf(index)).sort((a, b) => a - b) : order.indexOf(q.correctIndex);
      return [q.id, value];
    }),
  );
}

/** The body of PUT /answers for a page's question: `option` (single) or `options` (multiple) from these positions. */
export function answerBody(question: Pick<TakingView["questions"][number], "id" | "type">, value: number | number[]): AnswerInput {
  if (question.type === "multiple") return { question_id: question.id, options: typeof value === "number" ? [value] : value };
  return { question_id: question.id, option: typeof value === "number" ? value : value[0] };
}

/** Some whole answer to a page's question, from position `first` on: one option, or `choose` options in a row. */
export function someAnswer(question: Pick<TakingView["questions"][number], "id" | "type" | "choose" | "options">, first = 0): AnswerInput {
  const n = question.options.length;
  return answerBody(question, question.type === "multiple" ? Array.from({ length: question.choose }, (_, i) => (first + i) % n) : first % n);
}

/** A wrong answer: the next option (single), or every right position moved on by one (multiple: same count, another set). */
export function wrongAnswer(question: Pick<TakingView["questions"][number], "id" | "type" | "options">, right: number | number[]): AnswerInput {
  const n = question.options.length;
  const next = (p: number) => (p + 1) % n;
  return answerBody(question, typeof right === "number" ? next(right) : right.map(next));
}

/** Starts and answers every question: right for the first `right` questions (in the recipient's order), wrong after. */
export async function answerAll(db: Db, token: string, right = Infinity): Promise<TakingView> {
  const view = await startAndOpen(db, token);
  const correct = await rightAnswers(db, token);
  for (const [index, question] of view.questions.entries()) {
    const value = correct.get(question.id)!;
    await saveAnswer(db, token, index < right ? answerBody(question, value) : wrongAnswer(question, value));
  }
  return view;
}

/** Per question of this recipient: the body of a right answer and of a wrong one, as positions on their page (no page read needed). */
export async function answerBodies(db: Db, token: string): Promise<Map<number, { right: AnswerInput; wrong: AnswerInput }>> {
  const recipient = await recipientByToken(db, token);
  const questions = await db.select().from(testQuestions).where(eq(testQuestions.testId, recipient.testId));
  const right = await rightAnswers(db, token);
  return new Map(
    questions.map((q) => {
      const page = { id: q.id, type: q.type, options: q.options };
      return [q.id, { right: answerBody(page, right.get(q.id)!), wrong: wrongAnswer(page, right.get(q.id)!) }];
    }),
  );
}
