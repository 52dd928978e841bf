import { z } from "zod";
import { recipientStatuses } from "@/db/schema/statuses";
import { integrityField } from "@/lib/certification/integrity/schemas";

/**
 * What the trainer reads to follow a test up: one recipient's answer sheet, and the analysis
 * of every question over the recipients who completed it. Definitions and thresholds:
 * docs/decisions.md ("Answer sheets and question analysis").
 */

/** A question is "hard" below this percent correct (difficulty)… */
export const HARD_BELOW_PERCENT = 30;
/** …and discriminates poorly below this point-biserial correlation. */
export const LOW_DISCRIMINATION_BELOW = 0.2;

const domainRef = z.object({ id: z.number().int(), name: z.string() });

export const answerSheetItem = z
  .object({
    position: z.number().int().meta({ description: "1-based place of the question in this recipient's own order." }),
    question_id: z.number().int(),
    domain: domainRef,
    prompt: z.string(),
    options: z.array(z.string()),
    type: z.enum(["single", "multiple"]).meta({ description: "Not in the specification (additive): `single` or `multiple` (multiple-response: choose `choose` options, scored all or nothing)." }),
    choose: z.number().int().meta({ description: "Not in the specification (additive): how many options the question asks for (1 on a single question)." }),
    chosen: z
      .union([z.number().int(), z.array(z.number().int())])
      .nullable()
      .meta({ description: "Index (0-based) in `options` of the option the recipient chose; on a multiple-response question the indexes chosen, ascending; null: not answered." }),
    correct_option: z
      .union([z.number().int(), z.array(z.number().int())])
      .nullable()
      .meta({
        description:
          "Index (0-based) in `options` of the right option; on a multiple-response question the right indexes, ascending; null for a test of the shared catalog (its answer key is not shown to trainers).",
      }),
    correct: z.boolean().meta({ description: "The chosen option is the right one; on a multiple-response question, exactly the right set (false when unanswered)." }),
    answered_at: z.string().nullable().meta({ description: "When the answer counted now was given (the last change); null: not answered." }),
    explanation: z.string().nullable().meta({ description: "The question's explanation (\"\" when it has none); null for a test of the shared catalog." }),
  })
  .meta({ id: "AnswerSheetItem" });
export type AnswerSheetItem = z.infer<typeof answerSheetItem>;

/** The test, and whether its answer key may be shown: the first fields of the answer sheet and of the analysis. */
const testAndKey = {
  test: z.string().meta({ description: "The test code." }),
  answer_key: z.boolean().meta({
    description:
      "true for a test of the workspace's own certification: the right options (and, on the sheet, the explanations) are shown. " +
      "false for a test of the shared catalog, whose answer key is never shown to trainers: those fields are null.",
  }),
};

export const answerSheetView = z
  .object({
    ...testAndKey,
    recipient: z.object({
      id: z.number().int(),
      email: z.string(),
      name: z.string(),
      status: z.enum(recipientStatuses),
      started_at: z.string().nullable(),
      completed_at: z.string().nullable(),
    }),
    questions: z.number().int().meta({ description: "Questions in the test." }),
    answered: z.number().int().meta({ description: "Questions answered so far." }),
    correct: z.number().int().meta({ description: "Answers that are right so far (the result's `correct` once completed)." }),
    answers: z.array(answerSheetItem).meta({ description: "Every question, in the recipient's order, answered or not." }),
    integrity: integrityField,
  })
  .meta({ id: "AnswerSheet" });
export type AnswerSheetView = z.infer<typeof answerSheetView>;

export const distractorFlags = ["chosen_over_correct", "never_chosen"] as const;
export const questionFlags = ["hard", "low_discrimination"] as const;

export const optionAnalysis = z
  .object({
    index: z.number().int().meta({ description: "0-based index of the option." }),
    text: z.string(),
    correct: z.boolean().nullable().meta({ description: "This is the right option; null for a test of the shared catalog." }),
    chosen: z.number().int().meta({ description: "Completed recipients who chose it (on a multiple-response question, whose chosen set held it)." }),
    percent: z
      .number()
      .nullable()
      .meta({ description: "`chosen` in percent of `answered` (one decimal; on a multiple-response question the options' percents add up to `choose` × 100); null when nobody answered." }),
    flag: z
      .enum(distractorFlags)
      .nullable()
      .meta({
        description:
          "Wrong options only, once someone answered: chosen_over_correct — chosen by more completed recipients than the right option (multiple-response: than the least-chosen right option); " +
          "never_chosen — chosen by none. null otherwise, and always null for a test of the shared catalog (a flag would single out the wrong options).",
      }),
  })
  .meta({ id: "OptionAnalysis" });

export const questionAnalysis = z
  .object({
    question_id: z.number().int(),
    position: z.number().int().meta({ description: "1-based place of the question in the test (the order it was drawn in)." }),
    domain: domainRef,
    prompt: z.string(),
    type: z.enum(["single", "multiple"]).meta({ description: "Not in the specification (additive): `single` or `multiple` (multiple-response, scored all or nothing)." }),
    choose: z.number().int().meta({ description: "Not in the specification (additive): how many options the question asks for (1 on a single question)." }),
    given: z
      .number()
      .int()
      .meta({
        description:
          "Not in the specification (additive): completed recipients who were given this question — all of them on a per_test test; on a per_recipient test " +
          "those whose own set held it. `percent_correct` and `discrimination` are over them.",
      }),
    answered: z.number().int().meta({ description: "Completed recipients who answered it." }),
    correct: z.number().int().meta({ description: "Completed recipients who answered it right." }),
    percent_correct: z
      .number()
      .nullable()
      .meta({
        description:
          "Difficulty: `correct` in percent of the completed recipients given it (`given`; an unanswered question counts as wrong, as in the result), one decimal; null with none.",
      }),
    discrimination: z
      .number()
      .nullable()
      .meta({
        description:
          "Point-biserial correlation (−1…1, three decimals) between being right on this question (1/0) and the total score (correct answers) " +
          "over the completed recipients given it. null with fewer than 2 of them, or when either side has no variance (everyone right, or everyone wrong, or every total the same).",
      }),
    flags: z.array(z.enum(questionFlags)).meta({
      description: `hard: percent_correct below ${HARD_BELOW_PERCENT}. low_discrimination: discrimination below ${LOW_DISCRIMINATION_BELOW}. A null figure raises no flag.`,
    }),
    weak: z.boolean().meta({ description: "At least one flag." }),
    options: z.array(optionAnalysis),
  })
  .meta({ id: "QuestionAnalysis" });
export type QuestionAnalysisView = z.infer<typeof questionAnalysis>;

export const testAnalysisView = z
  .object({
    ...testAndKey,
    completed: z.number().int().meta({ description: "Recipients counted: those who completed the test." }),
    in_progress: z.number().int().meta({ description: "Recipients who started and have not completed: not counted yet." }),
    average_percent: z.number().nullable().meta({ description: "Mean overall result of the completed recipients, one decimal; null with none." }),
    thresholds: z.object({
      hard_below_percent: z.number(),
      low_discrimination_below: z.number(),
    }),
    domains: z.array(
      domainRef.extend({
        questions: z.number().int(),
        average_percent: z.number().nullable().meta({ description: "Mean of the completed recipients' percent in this domain, one decimal; null with none." }),
      }),
    ),
    questions: z.array(questionAnalysis).meta({
      description: "Every question of the test, in the test's order; on a per_recipient test every question of the pool that some recipient was given (the others are left out).",
    }),
  })
  .meta({ id: "TestAnalysis" });
export type TestAnalysisView = z.infer<typeof testAnalysisView>;
