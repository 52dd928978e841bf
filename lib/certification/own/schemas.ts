import { z } from "zod";
import { correctProblems, questionType } from "@/lib/certification/catalog/question-type";

/** Inputs and views of the editor of a workspace's own certifications (dashboard only). */

const name = z.string().trim().min(1, "Give it a name.").max(200, "At most 200 characters.");

export const updateCertificationInput = z.object({
  name,
  vendor: z.string().trim().min(1, "Give the vendor.").max(100, "At most 100 characters."),
  code: z.string().trim().max(50, "At most 50 characters.").default(""),
  description: z.string().trim().max(2000, "At most 2000 characters.").default(""),
});
export type UpdateCertificationInput = z.output<typeof updateCertificationInput>;

/** Creation from the dashboard: the fields and the domain names (questions come later). */
export const newCertificationInput = updateCertificationInput.extend({
  domains: z
    .array(z.string().trim().min(1, "A domain needs a name.").max(200, "At most 200 characters."))
    .min(1, "Give at least one domain.")
    .max(50, "At most 50 domains."),
});
export type NewCertificationInput = z.output<typeof newCertificationInput>;

export const domainNameInput = z.object({ name });
export type DomainNameInput = z.output<typeof domainNameInput>;

export const MAX_OPTIONS = 8;

// Whole numbers here; the range (an index of one of the options) is checked with the type below, so a bad index is one error.
const optionIndex = z.number().int("Choose the correct option.");

export const questionInput = z
  .object({
    prompt: z.string().trim().min(1, "Write the question.").max(2000, "At most 2000 characters."),
    options: z
      .array(z.string().trim().min(1, "An option cannot be empty.").max(500, "At most 500 characters."))
      .min(2, "Give at least 2 options.")
      .max(MAX_OPTIONS, `At most ${MAX_OPTIONS} options.`),
    type: questionType,
    correct: z
      .union([optionIndex, z.array(optionIndex).max(MAX_OPTIONS, `At most ${MAX_OPTIONS} options.`)])
      .meta({ description: "`single`: the index of the right option. `multiple`: the indexes of the right options (2 or more, fewer than the options, no repeats; stored ascending)." }),
    explanation: z.string().trim().max(2000, "At most 2000 characters.").default(""),
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
/** The checked question; `type` may be left out by a caller in code (single). */
export type QuestionInput = Omit<z.output<typeof questionInput>, "type"> & { type?: z.output<typeof questionInput>["type"] };

export const questionView = z
  .object({
    id: z.number().int(),
    domain_id: z.number().int(),
    prompt: z.string(),
    options: z.array(z.string()),
    type: z.enum(["single", "multiple"]).meta({ description: "`single` (one right option) or `multiple` (choose exactly as many as `correct` holds; scored all or nothing)." }),
    correct: z
      .union([z.number().int(), z.array(z.number().int())])
      .meta({ description: "`single`: the index of the right option (a number). `multiple`: the indexes of the right options, ascending (an array)." }),
    explanation: z.string(),
  })
  .meta({ id: "Question" });
export type QuestionView = z.infer<typeof questionView>;

/** At most this many characters of CSV in one import (the JSON body limit is 1 MB). */
export const MAX_CSV_CHARS = 900_000;
export const MAX_CSV_ROWS = 2000;

export const importCsvInput = z.object({
  csv: z.string().min(1, "Paste or choose a CSV file.").max(MAX_CSV_CHARS, `At most ${MAX_CSV_CHARS} characters.`),
});
export type ImportCsvInput = z.output<typeof importCsvInput>;

export const csvColumns = ["domain", "question", "option_a", "option_b", "option_c", "option_d", "correct", "explanation"] as const;
export type CsvColumn = (typeof csvColumns)[number];

export type ImportResult = {
  imported: number;
  /** Names of the domains the import created. */
  created_domains: string[];
};
