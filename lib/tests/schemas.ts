import { z } from "zod";
import { rowId } from "@/lib/api/fields";
import { pageSchema } from "@/lib/api/paging";

export const MAX_QUESTIONS = 200;
export const MAX_RECIPIENTS_PER_REQUEST = 1000;

const email = z.email("Must be an e-mail address.").transform((value) => value.trim().toLowerCase());

export const recipientInput = z.object({
  email: z.string().trim().pipe(email),
  name: z.string().trim().max(200).default(""),
});

const recipientList = z
  .array(recipientInput)
  .min(1, "Give at least one recipient.")
  .max(MAX_RECIPIENTS_PER_REQUEST, `At most ${MAX_RECIPIENTS_PER_REQUEST} recipients per request.`);

/**
 * POST /tests. Either `questions` (split in equal parts over `domains`, the remainder one
 * each to the first ones) or `questions_per_domain` (an explicit count per domain); either
 * `recipients` or `class_id`.
 */
export const createTestInput = z.object({
  certification_id: rowId(),
  domains: z.array(rowId()).min(1, "Choose at least one domain.").max(50).optional(),
  questions: z.number().int().min(1).max(MAX_QUESTIONS).optional(),
  questions_per_domain: z
    .array(z.object({ domain_id: rowId(), questions: z.number().int().min(1).max(MAX_QUESTIONS) }))
    .min(1)
    .max(50)
    .optional()
    .refine((entries) => !entries || entries.reduce((sum, entry) => sum + entry.questions, 0) <= MAX_QUESTIONS, `At most ${MAX_QUESTIONS} questions in all.`)
    .meta({ description: "Alternative to `questions`: how many questions to draw from each domain." }),
  recipients: recipientList.optional(),
  class_id: rowId().optional().meta({ description: "Send to the class's joined students instead of `recipients`." }),
  send_email: z.boolean().default(true).meta({ description: "false: no e-mail is sent; share the personal links of the response yourself." }),
});
export type CreateTestInput = z.input<typeof createTestInput>;

export const addRecipientsInput = z.object({
  recipients: recipientList,
  send_email: z.boolean().default(true),
});
export type AddRecipientsInput = z.input<typeof addRecipientsInput>;

export const domainResultView = z.object({ id: z.number().int(), name: z.string(), percent: z.number(), correct: z.number().int(), questions: z.number().int() });

export const resultView = z
  .object({
    percent: z.number(),
    correct: z.number().int(),
    questions: z.number().int(),
    domains: z.array(domainResultView),
  })
  .meta({ id: "Result" });

export const recipientView = z
  .object({
    id: z.number().int(),
    email: z.string(),
    name: z.string(),
    status: z.enum(["sent", "started", "completed"]),
    link: z.string().meta({ description: "The recipient's personal link." }),
    sent_at: z.string(),
    last_emailed_at: z.string().nullable().meta({ description: "When the test was last e-mailed; null with send_email: false." }),
    started_at: z.string().nullable(),
    completed_at: z.string().nullable(),
    result: resultView.optional(),
  })
  .meta({ id: "Recipient" });
export type RecipientView = z.infer<typeof recipientView>;

export const testDomainView = z.object({ id: z.number().int(), name: z.string(), questions: z.number().int() });

export const testSummaryView = z
  .object({
    code: z.string(),
    certification_id: z.number().int(),
    certification: z.string(),
    questions: z.number().int(),
    domains: z.array(testDomainView),
    class_id: z.number().int().nullable(),
    recipients: z.number().int(),
    started: z.number().int(),
    completed: z.number().int(),
    created_at: z.string(),
  })
  .meta({ id: "TestSummary" });
export type TestSummaryView = z.infer<typeof testSummaryView>;

export const testView = testSummaryView
  .omit({ recipients: true })
  .extend({ recipients: z.array(recipientView) })
  .meta({ id: "Test" });
export type TestView = z.infer<typeof testView>;

export const testList = pageSchema(testSummaryView).meta({ id: "TestList" });
