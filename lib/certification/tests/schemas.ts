import { z } from "zod";
import { drawModes, questionTypes, recipientStatuses, showAnswersPolicies, testLanguages } from "@/db/schema/statuses";

/** The review policies, draw modes and question types, for the dashboard's forms (components/ never import db/). */
export { drawModes, questionTypes, showAnswersPolicies, testLanguages };
import { isoDateTime, rowId } from "@/lib/kernel/fields";
import { pageSchema, paginationSchema } from "@/lib/kernel/paging";
import { MAX_OPTIONS } from "@/lib/certification/own/schemas";
import { creationRules } from "./rules";

export const MAX_QUESTIONS = 200;
export const MAX_RECIPIENTS_PER_REQUEST = 1000;
export const MAX_TIME_LIMIT_MINUTES = 600;
export const MAX_REMINDER_HOURS = 720;
export const MAX_EXTRA_TIME_MINUTES = 600;

/** An accommodation: minutes added to one recipient's deadline. */
export const extraTimeMinutes = z
  .number({ error: "Give a whole number of minutes (0–600)." })
  .int("Give a whole number of minutes (0–600).")
  .min(0, "At least 0 minutes.")
  .max(MAX_EXTRA_TIME_MINUTES, `At most ${MAX_EXTRA_TIME_MINUTES} minutes.`)
  .meta({
    description:
      "Not in the specification (additive): minutes added to this recipient's deadline (0–600, default 0), e.g. as an exam accommodation. " +
      "The server's deadline is Start + time_limit_minutes + extra_time_minutes; see docs/decisions.md (\"Extra time\") for closes_at.",
  });

const email = z.email("Must be an e-mail address.").transform((value) => value.trim().toLowerCase());

export const recipientInput = z.object({
  email: z.string().trim().pipe(email),
  name: z.string().trim().max(200).default(""),
  extra_time_minutes: extraTimeMinutes.default(0),
});

/** PATCH /tests/{code}/recipients/{id}: a recipient's name and extra time, until they complete. */
export const updateRecipientInput = z
  .object({
    name: z.string().trim().max(200, "At most 200 characters.").optional(),
    extra_time_minutes: extraTimeMinutes.optional(),
  })
  .refine((body) => body.name !== undefined || body.extra_time_minutes !== undefined, { message: "Give name, extra_time_minutes or both." });
export type UpdateRecipientInput = z.output<typeof updateRecipientInput>;

const recipientList = z
  .array(recipientInput)
  .min(1, "Give at least one recipient.")
  .max(MAX_RECIPIENTS_PER_REQUEST, `At most ${MAX_RECIPIENTS_PER_REQUEST} recipients per request.`);

/**
 * POST /tests. Either `questions` (split in equal parts over `domains`, the remainder one
 * each to the first ones) or `questions_per_domain` (an explicit count per domain); either
 * `recipients` or `class_id`.
 */

/**
 * The settings of a test (all optional, each with its default), fixed at creation. Rules
 * between fields (closes_at after opens_at and in the future, after_close needs closes_at)
 * are in lib/certification/tests/rules.ts, so every wrong field is listed together.
 */
export const testSettingsShape = {
  name: z
    .string()
    .trim()
    .min(1, "Give the test a name, or leave the field out.")
    .max(200, "At most 200 characters.")
    .optional()
    .meta({ description: 'How the test is listed everywhere (dashboard, e-mails, the recipient\'s page). Default: "{certification} test".' }),
  time_limit_minutes: z
    .number({ error: "Give a whole number of minutes (1–600), or null." })
    .int("Give a whole number of minutes (1–600), or null.")
    .min(1, "At least 1 minute.")
    .max(MAX_TIME_LIMIT_MINUTES, `At most ${MAX_TIME_LIMIT_MINUTES} minutes.`)
    .nullable()
    .default(null)
    .meta({
      description:
        "Minutes from the recipient's Start. Enforced by the server: answers after the deadline are refused (409), and the attempt is submitted at the deadline " +
        "with the answers given (unanswered ones count as wrong), even if the page was closed. Default null: no limit.",
    }),
  opens_at: isoDateTime().nullable().default(null).meta({ description: "Start is refused before this time (the link says when the test opens). Default null: open at once." }),
  closes_at: isoDateTime()
    .nullable()
    .default(null)
    .meta({ description: "Start is refused from this time on; an attempt in progress is submitted at closes_at. Must be after opens_at and in the future. Default null: never closes." }),
  pass_mark: z
    .number({ error: "Give a percent (0–100), or null." })
    .min(0, "At least 0.")
    .max(100, "At most 100.")
    .nullable()
    .default(null)
    .meta({ description: "Percent needed to pass: each result gains `passed` (percent ≥ pass_mark). Default null: no pass mark, `passed` is null." }),
  shuffle_options: z.boolean().default(true).meta({ description: "Each recipient sees the options of each question in an order of their own (scored against the right option). Default true." }),
  show_answers: z
    .enum(showAnswersPolicies, { error: "One of after_submit, after_close, never." })
    .default("after_submit")
    .meta({
      description:
        "What the recipient sees of the correct answers and explanations: after_submit (default) on the result page at once; after_close once closes_at has passed (needs closes_at); never.",
    }),
  reminder_after_hours: z
    .number({ error: "Give a whole number of hours (1–720), or null." })
    .int("Give a whole number of hours (1–720), or null.")
    .min(1, "At least 1 hour.")
    .max(MAX_REMINDER_HOURS, `At most ${MAX_REMINDER_HOURS} hours.`)
    .nullable()
    .default(null)
    .meta({ description: "One reminder e-mail this many hours after the test was e-mailed, to recipients who have not completed; never from closes_at on. Default null: no reminder." }),
  send_result: z.boolean().default(false).meta({ description: "E-mail each recipient their result when they complete (with the correct answers only as show_answers allows). Default false." }),
  draw: z
    .enum(drawModes, { error: "One of per_test, per_recipient." })
    .default("per_test")
    .meta({
      description:
        "per_test (default): the questions are drawn once and every recipient gets the same set. per_recipient: each recipient gets a random set of their own, " +
        "with the same count per domain, frozen when they are sent the test (added recipients and class sends included).",
    }),
  record_integrity: z
    .boolean()
    .default(true)
    .meta({
      description:
        "Record each attempt's integrity signals (address and browser at start and submit, browsers that opened the link, time the page was hidden, copy attempts, " +
        "leaving full screen), shown as `integrity` on the answer sheet. The start page tells the recipient what is recorded. Default true.",
    }),
  certificate: z
    .boolean()
    .default(false)
    .meta({
      description:
        "Issue a certificate on a pass: a public verification page, a PDF and an Open Badges 3.0 credential (`result.certificate_url`). Needs a pass_mark. Default false.",
    }),
  language: z
    .enum(testLanguages, { error: "One of auto, en, de, fr, es." })
    .default("auto")
    .meta({
      description:
        "The language of the recipient's pages and e-mails (the questions stay as written): auto (default) follows the recipient's browser on the pages, " +
        "and the workspace's default_language in e-mails; en, de, fr or es fixes it.",
    }),
};

const questionCount = z
  .number({ error: "Give a whole number of questions." })
  .int("Give a whole number of questions.")
  .min(1, "Ask for at least 1 question.")
  .max(MAX_QUESTIONS, `At most ${MAX_QUESTIONS} questions per test.`);

export const createTestInput = z.object({
  certification_id: rowId("Choose a certification."),
  domains: z.array(rowId()).min(1, "Choose at least one domain.").max(50).optional(),
  questions: questionCount.optional(),
  questions_per_domain: z
    .array(z.object({ domain_id: rowId(), questions: questionCount }))
    .min(1)
    .max(50)
    .optional()
    .refine((entries) => !entries || entries.reduce((sum, entry) => sum + entry.questions, 0) <= MAX_QUESTIONS, `At most ${MAX_QUESTIONS} questions in all.`)
    .meta({ description: "Alternative to `questions`: how many questions to draw from each domain." }),
  recipients: recipientList.optional(),
  class_id: rowId("Choose a class.").optional().meta({ description: "Send to the class's joined students instead of `recipients`." }),
  send_email: z.boolean().default(true).meta({ description: "false: no e-mail is sent; share the personal links of the response yourself." }),
  ...testSettingsShape,
}).superRefine(
  // Every wrong field in one 422: when some fields are wrong in themselves, the rules between the
  // others come with them. A body whose fields are all right is left to `createTest`, which
  // reports the same rules together with the catalog's checks.
  (body, ctx) => {
    const unreadable = new Set(ctx.issues.map((issue) => String(issue.path?.[0])));
    for (const { field, message } of creationRules(body, unreadable).fields) ctx.addIssue({ code: "custom", path: field.split("."), message });
  },
  // Only for a body that is an object (not null, a list or a string): its fields can then be read one by one.
  { when: (payload) => payload.issues.length > 0 && typeof payload.value === "object" && payload.value !== null && !Array.isArray(payload.value) },
);
/** The body a client sends (forms build it). */
export type CreateTestInput = z.input<typeof createTestInput>;
/** The parsed body: what createTest takes. */
export type NewTest = z.output<typeof createTestInput>;

export const addRecipientsInput = z.object({
  recipients: recipientList,
  send_email: z.boolean().default(true),
});
export type AddRecipientsInput = z.input<typeof addRecipientsInput>;
export type NewRecipients = z.output<typeof addRecipientsInput>;

/** Whom POST /tests/{code}/resend e-mails: `not_completed`, everyone who has not completed; `sent`, only those who have not started. */
export const resendAllAudiences = ["not_completed", "sent"] as const;

/** POST /tests/{code}/resend (additive): the body is optional. */
export const resendAllInput = z
  .object({
    status: z
      .enum(resendAllAudiences)
      .default("not_completed")
      .meta({ description: "`not_completed` (default): every recipient who has not completed (status sent or started); `sent`: only those who have not started." }),
  });
export type ResendAllInput = z.input<typeof resendAllInput>;
export type ResendAllRequest = z.output<typeof resendAllInput>;

export const resendAllResult = z
  .object({
    queued: z.number().int().meta({ description: "Recipients e-mailed again (one invitation each, queued in this request)." }),
    skipped: z.number().int().meta({ description: "The test's other recipients: completed, or (with `status: sent`) started." }),
  })
  .meta({ id: "ResendAllResult" });
export type ResendAllResult = z.infer<typeof resendAllResult>;

export const domainResultView = z.object({ id: z.number().int(), name: z.string(), percent: z.number(), correct: z.number().int(), questions: z.number().int() });

export const resultView = z
  .object({
    percent: z.number(),
    correct: z.number().int(),
    questions: z.number().int(),
    domains: z.array(domainResultView),
    passed: z.boolean().nullable().meta({ description: "Not in the specification (additive): percent ≥ the test's pass_mark; null when the test has no pass mark." }),
    certificate_url: z
      .string()
      .nullable()
      .meta({ description: "Not in the specification (additive): the certificate's public verification page (/certificates/{id}) when the test issues certificates and this result passed; null otherwise." }),
  })
  .meta({ id: "Result" });
export type ResultView = z.infer<typeof resultView>;
export type DomainResultView = z.infer<typeof domainResultView>;

/**
 * What a trainer sees of the latest e-mail to a test recipient or an invited student: our
 * side (queued, sent, failed, dropped) until the provider reports more through its signed
 * webhooks (delivered, delivery_delayed, bounced, complained). See docs/webhooks.md.
 */
export const emailDeliveryStatuses = [
  "not_sent",
  "queued",
  "sent",
  "delivery_delayed",
  "delivered",
  "complained",
  "bounced",
  "failed",
  "dropped",
] as const;
export type EmailDeliveryStatusView = (typeof emailDeliveryStatuses)[number];

/** The statuses where the address or the message needs the trainer's attention. */
export const emailProblemStatuses: readonly EmailDeliveryStatusView[] = ["bounced", "complained", "failed", "dropped"];

export const emailDeliveryView = z
  .object({
    status: z.enum(emailDeliveryStatuses).meta({
      description:
        "not_sent: no e-mail was sent (send_email: false). queued: waiting to be sent or being retried. sent: the provider accepted it. " +
        "delivery_delayed: the receiving server deferred it; the provider keeps trying. delivered: the receiving server accepted it. " +
        "complained: the recipient marked it as spam. bounced: the address cannot receive mail (reason in detail); correct it and send again. " +
        "failed: the provider refused it for good, e.g. an invalid address (reason in detail). dropped: it could not be handed to the provider before the retry budget ran out (last error in detail).",
    }),
    detail: z.string().nullable().meta({
      description: "Why, when there is a reason: the bounce message, the provider's refusal, or the last error of a retried or dropped message.",
    }),
    updated_at: z.string().nullable().meta({
      description:
        "When the status was reached: the provider's event time for delivered, delivery_delayed, bounced and complained; when the provider accepted it for sent; when it was queued for queued; null otherwise.",
    }),
  })
  .meta({ id: "EmailDelivery", description: "The latest e-mail to this person and what became of it." });
export type EmailDeliveryView = z.infer<typeof emailDeliveryView>;

export const recipientView = z
  .object({
    id: z.number().int(),
    email: z.string(),
    name: z.string(),
    status: z.enum(recipientStatuses),
    link: z.string().meta({ description: "The recipient's personal link." }),
    sent_at: z.string().nullable().meta({
      description:
        "When the test was first e-mailed to them. null while it never was: with send_email: false the personal link (`link`) was handed to the caller, " +
        "`status` is still `sent` and `email_delivery.status` is `not_sent`; a resend e-mails it and sets this.",
    }),
    last_emailed_at: z.string().nullable().meta({ description: "When the test was last e-mailed; null with send_email: false." }),
    started_at: z.string().nullable(),
    completed_at: z.string().nullable(),
    result: resultView.optional(),
    /** Not in the specification (additive): partial progress. */
    answered: z.number().int().meta({ description: "Questions answered so far (additive): the progress of a started recipient." }),
    /** Not in the specification (additive; `email` is already the address): the latest e-mail and what became of it. */
    email_delivery: emailDeliveryView,
    extra_time_minutes: z.number().int().meta({ description: "Not in the specification (additive): minutes added to this recipient's deadline." }),
    deadline: z.string().nullable().meta({ description: "Not in the specification (additive): when this recipient's attempt ends (set at Start, extra time included); null before Start or without a deadline." }),
    integrity_flagged: z.boolean().meta({
      description:
        "Not in the specification (additive): the integrity record saw something (the answer sheet's `integrity.flagged`: more than one browser, the address " +
        "changed between start and submit, or the page was hidden, copied from or left full screen). false when nothing was seen or recorded. Never a verdict.",
    }),
  })
  .meta({ id: "Recipient" });
export type RecipientView = z.infer<typeof recipientView>;

export const testDomainView = z.object({ id: z.number().int(), name: z.string(), questions: z.number().int() });

/** The settings as every read of a test shows them (additive to the specification's fields). */
export const testSettingsView = {
  name: z.string().meta({ description: 'The test\'s name (default "{certification} test").' }),
  time_limit_minutes: z.number().int().nullable(),
  opens_at: z.string().nullable(),
  closes_at: z.string().nullable(),
  pass_mark: z.number().nullable(),
  shuffle_options: z.boolean(),
  show_answers: z.enum(showAnswersPolicies),
  reminder_after_hours: z.number().int().nullable(),
  send_result: z.boolean(),
  draw: z.enum(drawModes),
  record_integrity: z.boolean(),
  certificate: z.boolean(),
  language: z.enum(testLanguages).meta({ description: "Additive: auto (the recipient's browser; e-mails the workspace's default_language), or en, de, fr, es." }),
};
export type TestSettingsView = { [K in keyof typeof testSettingsView]: z.infer<(typeof testSettingsView)[K]> };

export const testSummaryView = z
  .object({
    code: z.string(),
    ...testSettingsView,
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
  .extend({
    recipients: z.array(recipientView).meta({
      description: "Every recipient, in id order; with `recipients_page` / `recipients_per_page` (additive) only that page of them.",
    }),
    recipients_pagination: paginationSchema.optional().meta({
      description:
        "Additive, only when `recipients_page` or `recipients_per_page` was given: the page of `recipients` returned and `total`, the test's recipients.",
    }),
    email_problems: z.number().int().optional().meta({
      description:
        "Additive, only with `recipients_page` / `recipients_per_page`: how many of all the test's recipients' latest e-mails bounced, were reported as spam, failed or were dropped.",
    }),
  })
  .meta({ id: "Test" });
export type TestView = z.infer<typeof testView>;

/** At most this many recipients per page of `GET /tests/{code}?recipients_per_page=`. */
export const MAX_RECIPIENTS_PER_PAGE = 1000;

/**
 * `GET /tests/{code}`'s additive paging of `recipients`: without either parameter every
 * recipient (the specification's answer); with one or both, that page only.
 */
export const testRecipientsQuery = z.object({
  recipients_page: z.coerce
    .number()
    .int("recipients_page must be a whole number.")
    .min(1, "recipients_page starts at 1.")
    .max(100_000)
    .optional()
    .meta({ description: "Additive: return only this page of `recipients` (from 1; default 1 when `recipients_per_page` is given)." }),
  recipients_per_page: z.coerce
    .number()
    .int("recipients_per_page must be a whole number.")
    .min(1, "recipients_per_page must be at least 1.")
    .max(MAX_RECIPIENTS_PER_PAGE, `recipients_per_page can be at most ${MAX_RECIPIENTS_PER_PAGE}.`)
    .optional()
    .meta({ description: `Additive: recipients per page, 1–${MAX_RECIPIENTS_PER_PAGE} (default 100 when \`recipients_page\` is given).` }),
});
export type TestRecipientsQuery = z.output<typeof testRecipientsQuery>;

/** The paging a `GET /tests/{code}` query asks for; undefined: every recipient. */
export function recipientsPaging(query: TestRecipientsQuery): { page: number; per_page: number } | undefined {
  if (query.recipients_page === undefined && query.recipients_per_page === undefined) return undefined;
  return { page: query.recipients_page ?? 1, per_page: query.recipients_per_page ?? 100 };
}

export const testList = pageSchema(testSummaryView).meta({ id: "TestList" });

/**
 * The body of PUT /api/t/{token}/answers (issue 23): `option` for a single-answer question,
 * `options` for a multiple-response one; exactly one of them. Both are positions as this
 * recipient's page shows the options. What the body alone can tell is checked here (a
 * position too large for any question, a position given twice); the count to choose and
 * the question's own option count are the question's, checked by the save
 * (`taking_save_answer`, db/migrations/0028_taking_multiple.sql) as field errors too.
 */
export function answerBody<Id extends z.ZodType<number>>(questionId: Id, maxOptions: number) {
  const position = z.number().int().min(0).max(maxOptions);
  return z
    .object({
      question_id: questionId,
      option: position
        .optional()
        .meta({ description: "A single-answer question: the option's position as this recipient's page shows it (0 = first); the server maps it to the question's own option." }),
      options: z
        .array(position)
        .min(1, "Choose at least one option.")
        .max(maxOptions)
        .optional()
        .meta({
          description:
            "A multiple-response question: the chosen options' positions on this recipient's page, exactly as many as the question's `choose`, no position twice. A wrong count, a repeat or a position out of range → 422 on `options`.",
        }),
    })
    .superRefine((body, ctx) => {
      if (body.option === undefined && body.options === undefined) {
        ctx.addIssue({ code: "custom", path: ["option"], message: "Give `option` (one answer) or `options` (a multiple-response question)." });
      }
      if (body.option !== undefined && body.options !== undefined) {
        ctx.addIssue({ code: "custom", path: ["options"], message: "Give `option` or `options`, not both." });
      }
      if (body.options && new Set(body.options).size !== body.options.length) {
        ctx.addIssue({ code: "custom", path: ["options"], message: "An option is chosen twice." });
      }
    });
}

/** PUT /api/t/{token}/answers: one answer, as the recipient chooses it (`option` or `options`: answerBody above). */
export const answerInput = answerBody(rowId(), MAX_OPTIONS);
export type AnswerInput = z.output<typeof answerInput>;

export const answerSaved = z.object({
  answered: z.number().int().meta({ description: "Questions answered so far." }),
  questions: z.number().int().meta({ description: "Questions in the test." }),
});
export type AnswerSaved = z.infer<typeof answerSaved>;

/** POST /api/t/{token}/start: where the attempt stands after Start (the same on every call). */
export const attemptView = z
  .object({
    status: z.enum(recipientStatuses),
    started_at: z.string().nullable(),
    deadline: z.string().nullable().meta({ description: "When the attempt ends (the time limit or closes_at, whichever comes first, plus the recipient's extra_time_minutes); null: no deadline." }),
  })
  .meta({ id: "Attempt" });
export type AttemptView = z.infer<typeof attemptView>;
