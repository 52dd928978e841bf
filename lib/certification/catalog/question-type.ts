import { z } from "zod";
import type { QuestionType } from "@/db/schema";

/**
 * The two kinds of question (issue 23). `single`: one right option, `correct` is its index.
 * `multiple`: two or more right options, fewer than all of them; `correct` is the set, and the
 * recipient must choose exactly that many ("Choose 2"). Scored all or nothing: the exact set.
 * Stored as `correct_index` (single; for multiple the first of the set) and `correct_indexes`
 * (multiple: the set, ascending; null on single), on `questions` and `test_questions` alike.
 */

export const questionType = z
  .enum(["single", "multiple"])
  .default("single")
  .meta({ description: "`single` (one right option, the default) or `multiple` (two or more right options; the recipient chooses exactly that many, scored all or nothing)." });

/** The columns of a question that say which options are right. */
export type AnswerKey = { type: QuestionType; correctIndex: number; correctIndexes: number[] | null };

/** What an editor or the catalog says is right: an index (single) or a set of indexes (multiple). */
export type Correct = number | number[];

/** The field errors of a question's `correct` for its `type` and options; none when it is consistent. */
export function correctProblems(type: QuestionType, correct: Correct, optionCount: number): string[] {
  if (type === "single") {
    if (typeof correct !== "number") return ["A single-answer question has one right option: give its index."];
    return correct >= 0 && correct < optionCount ? [] : ["The correct answer must be one of the options."];
  }
  if (!Array.isArray(correct)) return ["A multiple-response question has two or more right options: give their indexes as a list."];
  if (correct.some((index) => index < 0 || index >= optionCount)) return ["Every right option must be one of the options."];
  if (new Set(correct).size !== correct.length) return ["An option is listed twice."];
  if (correct.length < 2) return ["Choose at least 2 right options (or make it a single-answer question)."];
  if (correct.length >= optionCount) return ["At least one option must be wrong."];
  return [];
}

/** The stored columns of a checked `correct`. */
export function answerKeyOf(type: QuestionType, correct: Correct): AnswerKey {
  if (type === "multiple" && Array.isArray(correct)) {
    const set = [...correct].sort((a, b) => a - b);
    return { type, correctIndex: set[0], correctIndexes: set };
  }
  return { type: "single", correctIndex: Array.isArray(correct) ? correct[0] : correct, correctIndexes: null };
}

/** `correct` as the API shows it: the index (single) or the set, ascending (multiple). */
export function correctOf(question: AnswerKey): Correct {
  return question.type === "multiple" && question.correctIndexes ? question.correctIndexes : question.correctIndex;
}

/** How many options the recipient chooses: 1, or the size of the right set. */
export function chooseCount(question: AnswerKey): number {
  return question.type === "multiple" && question.correctIndexes ? question.correctIndexes.length : 1;
}

/** What a recipient chose: an option index (single) or a set of them (multiple), in the question's own order. */
export type Chosen = number | readonly number[];

/** All or nothing: the one right option, or exactly the right set (no more, no fewer). */
export function isCorrect(question: AnswerKey, chosen: Chosen | undefined): boolean {
  if (chosen === undefined) return false;
  if (question.type !== "multiple" || !question.correctIndexes) return typeof chosen === "number" ? chosen === question.correctIndex : false;
  if (typeof chosen === "number") return false;
  const set = new Set(chosen);
  return set.size === question.correctIndexes.length && question.correctIndexes.every((index) => set.has(index));
}

/** Option letters as a trainer reads them (A, B, …): `[0, 2]` → "A;C". */
export const lettersOf = (indexes: readonly number[]) => indexes.map((index) => String.fromCharCode(65 + index)).join(";");

/** A stored answer as scored: the set on a multiple-response question, else the one option. */
export const chosenOf = (answer: { optionIndex: number; optionIndexes: number[] | null }): number | number[] => answer.optionIndexes ?? answer.optionIndex;

/** The text of the option(s) a value names, `; `-joined for a set (an e-mail, a CSV cell). */
export const optionsText = (options: readonly string[], value: Chosen) =>
  (typeof value === "number" ? [value] : value).map((index) => options[index] ?? "").join("; ");

export const MAX_OPTIONS = 8;

// Whole numbers here; the range (an index of one of the options) is checked with the type below, so a bad index is one error.
const optionIndex = z.number({ error: "Give the right option's index (a whole number from 0)." }).int("Choose the correct option.");

/**
 * The rules of a question, whole, with the editor's wording: a new one (the API's POST), an
 * edited one after its fields are merged (PATCH), and each question read from a bank file
 * (lib/certification/own/formats) are held to them.
 */
/** Line breaks as one character (CRLF and a lone CR become LF), so a text reads back the same from every file format. */
const lineFeeds = (text: string) => text.replace(/\r\n?/g, "\n");

export const questionRules = z
  .object({
    prompt: z.string({ error: "Write the question as text." }).overwrite(lineFeeds).trim().min(1, "Write the question.").max(2000, "At most 2000 characters."),
    options: z
      .array(z.string({ error: "Each option is a text." }).overwrite(lineFeeds).trim().min(1, "An option cannot be empty.").max(500, "At most 500 characters."), {
        error: "Give the options as a list of texts.",
      })
      .min(2, "Give at least 2 options.")
      .max(MAX_OPTIONS, `At most ${MAX_OPTIONS} options.`),
    type: questionType,
    correct: z
      .union([optionIndex, z.array(optionIndex).max(MAX_OPTIONS, `At most ${MAX_OPTIONS} options.`)], {
        error: "Give the right option's index, or for a multiple-response question a list of indexes.",
      })
      .meta({ description: "`single`: the index of the right option. `multiple`: the indexes of the right options (2 or more, fewer than the options, no repeats; stored ascending)." }),
    explanation: z.string({ error: "Write the explanation as text (or leave it out)." }).overwrite(lineFeeds).trim().max(2000, "At most 2000 characters.").default(""),
  })
  .superRefine((question, ctx) => {
    for (const message of correctProblems(question.type, question.correct, question.options.length)) {
      ctx.addIssue({ code: "custom", path: ["correct"], message });
    }
    const seen = new Set<string>();
    question.options.forEach((option, index) => {
      const key = option.toLowerCase();
      if (seen.has(key)) ctx.addIssue({ code: "custom", path: ["options", index], message: "Two options are the same." });
      seen.add(key);
    });
  });
