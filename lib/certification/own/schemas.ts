import { z } from "zod";
import { MAX_OPTIONS, questionRules } from "@/lib/certification/catalog/question-type";
import { intParam } from "@/lib/kernel/contract";
import { pagingQuery, pageSchema } from "@/lib/kernel/paging";
import { bankFormats } from "./formats/types";

/** Inputs and views of the editor of a workspace's own certifications (/api/v1/certifications and the dashboard). */

const name = z.string().trim().min(1, "Give it a name.").max(200, "At most 200 characters.");
const vendor = z.string().trim().min(1, "Give the vendor.").max(100, "At most 100 characters.");
const code = z.string().trim().max(50, "At most 50 characters.").meta({ description: "The exam code, e.g. \"SY0-701\"; may be empty." });
const description = z.string().trim().max(2000, "At most 2000 characters.");
const domainName = z.string().trim().min(1, "A domain needs a name.").max(200, "At most 200 characters.");

/** The dashboard's edit form: every field sent. */
export const updateCertificationInput = z.object({ name, vendor, code: code.default(""), description: description.default("") });
export type UpdateCertificationInput = z.output<typeof updateCertificationInput>;

/** PATCH: the fields sent change, the others stay; at least one. */
export const patchCertificationInput = z
  .object({ name: name.optional(), vendor: vendor.optional(), code: code.optional(), description: description.optional() })
  .refine((body) => Object.values(body).some((value) => value !== undefined), { message: "Send at least one of name, vendor, code, description." });
export type PatchCertificationInput = z.output<typeof patchCertificationInput>;

/** POST /api/v1/certifications: the fields and, optionally, the names of its first domains (questions come later). */
export const newCertificationInput = updateCertificationInput.extend({
  domains: z.array(domainName).max(50, "At most 50 domains.").default([]).meta({ description: "Names of its domains, in order (0 to 50; more can be added later)." }),
});
export type NewCertificationInput = z.output<typeof newCertificationInput>;

/** The dashboard's form asks for at least one domain (a certification without one cannot make a test). */
export const newCertificationForm = newCertificationInput.extend({
  domains: z.array(domainName).min(1, "Give at least one domain.").max(50, "At most 50 domains."),
});

export const domainNameInput = z.object({ name });
export type DomainNameInput = z.output<typeof domainNameInput>;

export { MAX_OPTIONS, questionRules };

/** POST …/domains/{domain_id}/questions: a new question. */
export const questionInput = questionRules.describe("A question: prompt, options, type, correct, explanation.");

/** PATCH of a question: the fields sent replace the stored ones (type and correct go together), `domain_id` moves it to another domain of the certification. The result is checked as a whole. */
export const patchQuestionInput = z
  .object({
    domain_id: z
      .number({ error: "Give the id of a domain of this certification." })
      .int("Give a domain id.")
      .positive("Give a domain id.")
      .max(2147483647, "Not a domain of this certification.")
      .optional().meta({ description: "Move the question to this domain of the same certification." }),
    prompt: z.unknown().optional(),
    options: z.unknown().optional(),
    type: z.unknown().optional(),
    correct: z.unknown().optional(),
    explanation: z.unknown().optional(),
  })
  .meta({ description: "Any of prompt, options, type, correct, explanation (as in a new question) and domain_id; what is absent stays. The merged question must be valid." })
  .refine((body) => Object.values(body).some((value) => value !== undefined), { message: "Send at least one field to change." });
export type PatchQuestionInput = z.output<typeof patchQuestionInput>;

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

export const questionList = pageSchema(questionView).meta({ id: "QuestionList" });

export const listQuestionsQuery = pagingQuery.extend({
  domain_id: z.coerce.number().int("domain_id must be a whole number.").positive("domain_id must be a domain's id.").max(2147483647).optional().meta({ description: "Only this domain's questions." }),
});
export type ListQuestionsQuery = z.output<typeof listQuestionsQuery>;

/** Only the certification's own domains: a domain's id of another one is a 404 as for any id that is none. */
export const domainParams = z.object({ id: intParam("Certification"), domain_id: intParam("Domain") });
export const questionParams = z.object({ id: intParam("Certification"), question_id: intParam("Question") });

const bankFormat = z.enum(bankFormats, { error: "format must be one of csv, gift, moodle_xml, aiken." });
const queryFlag = z
  .enum(["true", "false", "1", "0"], { error: "dry_run must be true or false." })
  .transform((value) => value === "true" || value === "1");

export const importQuery = z.object({
  format: bankFormat.meta({ description: "csv (our columns, docs/question-banks.md), gift, moodle_xml or aiken." }),
  dry_run: queryFlag.default(false).meta({ description: "true: read and check the file, report what would be imported, write nothing." }),
  domain_id: z.coerce
    .number()
    .int("domain_id must be a whole number.")
    .positive("domain_id must be a domain's id.")
    .max(2147483647)
    .optional()
    .meta({ description: "Where questions the file puts in no category go (Aiken; GIFT or CSV without one). Default: a domain named \"General\", made when needed." }),
});
export type ImportQuery = z.output<typeof importQuery>;

export const exportQuery = z.object({ format: bankFormat.meta({ description: "csv, gift, moodle_xml or aiken." }) });

export const importReport = z
  .object({
    format: bankFormat,
    dry_run: z.boolean(),
    imported: z.number().int().meta({ description: "Questions written (a dry run: that would be)." }),
    domains: z
      .array(z.object({ id: z.number().int().nullable().meta({ description: "null: a domain the import makes (not yet, on a dry run)." }), name: z.string(), created: z.boolean(), questions: z.number().int() }))
      .meta({ description: "Per domain, how many questions go there; `created`: the import makes it." }),
    skipped: z
      .array(z.object({ line: z.number().int().meta({ description: "The line of the file where the item starts." }), name: z.string().nullable(), reason: z.string() }))
      .meta({ description: "Items not imported, each with why: a type we do not deliver, a rule of ours it breaks (too many options, …)." }),
  })
  .meta({ id: "ImportReport" });
export type ImportReport = z.infer<typeof importReport>;
