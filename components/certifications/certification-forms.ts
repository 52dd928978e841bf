import { z } from "zod";
import { checkedBy } from "@/components/forms/checked-by";
import { newCertificationForm, questionInput, type NewCertificationInput, type QuestionInput, type QuestionView } from "@/lib/certification/own/schemas";

/**
 * The certification editor's forms as the trainer fills them, turned into the bodies of the
 * own-certification contracts and checked by those contracts' schemas: the same rules as the
 * server, errors at the same paths (`domains.<n>`, `options.<n>`, `correct`).
 */

/** Domain names of the textarea: one per line, blank lines ignored. */
export function domainNames(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}

export const newCertificationSchema = z
  .object({ name: z.string(), vendor: z.string(), code: z.string(), description: z.string(), domainsText: z.string() })
  .transform(({ domainsText, ...fields }): NewCertificationInput => ({ ...fields, domains: domainNames(domainsText) }))
  .superRefine(checkedBy(newCertificationForm));

/** A question as edited: the option rows as typed, the type, and the right one (single) or the right set (multiple) by index. */
export const questionValues = z.object({
  prompt: z.string(),
  options: z.array(z.string()),
  type: z.enum(["single", "multiple"]).default("single"),
  correct: z.number(),
  correctSet: z.array(z.number()).default([]),
  explanation: z.string(),
});
export type QuestionValues = z.infer<typeof questionValues>;

export const emptyQuestion: QuestionValues = { prompt: "", options: ["", "", "", ""], type: "single", correct: 0, correctSet: [], explanation: "" };

export function questionValuesOf(question: QuestionView): QuestionValues {
  const set = typeof question.correct === "number" ? [question.correct] : question.correct;
  return { prompt: question.prompt, options: [...question.options], type: question.type, correct: set[0], correctSet: [...set], explanation: question.explanation };
}

/**
 * Blank options at the end are left out (the 4 blank rows of a new question serve for 2 or 3
 * options), unless a right one is among them; a blank one in the middle is an error.
 */
export function toQuestionBody({ correctSet, ...values }: QuestionValues): QuestionInput {
  const correct = values.type === "multiple" ? [...correctSet].sort((a, b) => a - b) : values.correct;
  const lastRight = Math.max(...(typeof correct === "number" ? [correct] : correct), 0);
  let options = [...values.options];
  while (options.length > 2 && !options[options.length - 1].trim() && lastRight < options.length - 1) options = options.slice(0, -1);
  return { ...values, options, correct };
}

export const questionSchema = questionValues.transform(toQuestionBody).superRefine(checkedBy(questionInput));
