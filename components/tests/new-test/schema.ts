import type { UseFormReturn } from "react-hook-form";
import { z } from "zod";
import { toCheckedBody, type FormProblem } from "@/components/forms/checked-by";
import { isoToLocalInput, localInputToBody } from "@/components/format/date-input";
import { creationRules } from "@/lib/certification/tests/rules";
import { createTestInput, type CreateTestInput, drawModes, showAnswersPolicies, testLanguages, type TestView } from "@/lib/certification/tests/schemas";
import { parseRecipients, recipientTextProblem } from "../parse-recipients";

/**
 * What the new-test form holds: the trainer's choices as typed (counts as text, recipients as
 * one textarea), one value per control. `toCreateTestBody` turns them into the body of
 * `POST /api/v1/tests`, which is then checked by the contract's own schema and the same
 * creation rules the server applies (lib/certification/tests/rules.ts): one set of rules, in two places.
 */
export const newTestValues = z.object({
  certification_id: z.number().int().optional(),
  /** Ticked domain ids, in the certification's order. */
  domains: z.array(z.number().int()),
  questionMode: z.enum(["equal", "per-domain"]),
  questions: z.string(),
  /** Count typed for each domain (by id), kept when the mode switches or a domain is unticked. */
  perDomain: z.record(z.string(), z.string()),
  recipientMode: z.enum(["people", "class"]),
  recipientsText: z.string(),
  class_id: z.string(),
  send_email: z.boolean(),
  // Settings as typed: blank means "none" (the body's null) or the default (name).
  name: z.string(),
  time_limit_minutes: z.string(),
  /** `datetime-local` values, read in the browser's zone (components/format/date-input.ts). */
  opens_at: z.string(),
  closes_at: z.string(),
  pass_mark: z.string(),
  shuffle_options: z.boolean(),
  show_answers: z.enum(showAnswersPolicies),
  reminder_after_hours: z.string(),
  send_result: z.boolean(),
  draw: z.enum(drawModes),
  record_integrity: z.boolean(),
  certificate: z.boolean(),
  language: z.enum(testLanguages),
});
export type NewTestValues = z.infer<typeof newTestValues>;

/** The settings' defaults, as the API's (lib/certification/tests/schemas.ts). */
export const defaultSettings = {
  name: "",
  time_limit_minutes: "",
  opens_at: "",
  closes_at: "",
  pass_mark: "",
  shuffle_options: true,
  show_answers: "after_submit",
  reminder_after_hours: "",
  send_result: false,
  draw: "per_test",
  record_integrity: true,
  certificate: false,
  language: "auto",
} satisfies Partial<NewTestValues>;

/**
 * A copy of a test's setup (the "Copy" button of a test): its certification, its domains with
 * the same counts, and its settings, named "… (copy)". Recipients are chosen anew, and the
 * questions are drawn afresh from the bank when the copy is created (docs/decisions.md).
 */
export function copyOf(test: TestView): Partial<NewTestValues> {
  return {
    certification_id: test.certification_id,
    domains: test.domains.map((d) => d.id),
    questionMode: "per-domain",
    perDomain: Object.fromEntries(test.domains.map((d) => [String(d.id), String(d.questions)])),
    name: `${test.name} (copy)`.slice(0, 200),
    time_limit_minutes: test.time_limit_minutes === null ? "" : String(test.time_limit_minutes),
    opens_at: test.opens_at ? isoToLocalInput(test.opens_at) : "",
    closes_at: test.closes_at ? isoToLocalInput(test.closes_at) : "",
    pass_mark: test.pass_mark === null ? "" : String(test.pass_mark),
    shuffle_options: test.shuffle_options,
    show_answers: test.show_answers,
    reminder_after_hours: test.reminder_after_hours === null ? "" : String(test.reminder_after_hours),
    send_result: test.send_result,
    draw: test.draw,
    record_integrity: test.record_integrity,
    certificate: test.certificate,
    language: test.language,
  };
}

/** A typed number (decimals allowed), null when blank, NaN when not a number (the body's schema says what is wrong). */
const optionalNumber = (text: string): number | null => (text.trim() === "" ? null : /^\s*[-\u2212]?\d+(\.\d+)?\s*$/.test(text) ? Number(text.replace("\u2212", "-")) : Number.NaN);

/** A typed count, or NaN (the body's schema says what is wrong with it). */
const count = (text: string | undefined): number => (text !== undefined && /^\s*-?\d+\s*$/.test(text) ? Number(text) : Number.NaN);

export function toCreateTestBody(values: NewTestValues): CreateTestInput {
  const body: CreateTestInput = {
    certification_id: values.certification_id ?? Number.NaN,
    send_email: values.send_email,
    ...(values.name.trim() ? { name: values.name } : {}),
    time_limit_minutes: optionalNumber(values.time_limit_minutes),
    opens_at: localInputToBody(values.opens_at),
    closes_at: localInputToBody(values.closes_at),
    pass_mark: optionalNumber(values.pass_mark),
    shuffle_options: values.shuffle_options,
    show_answers: values.show_answers,
    reminder_after_hours: optionalNumber(values.reminder_after_hours),
    send_result: values.send_result,
    draw: values.draw,
    record_integrity: values.record_integrity,
    certificate: values.certificate,
    language: values.language,
  };
  if (values.questionMode === "equal") {
    body.domains = values.domains;
    body.questions = count(values.questions);
  } else {
    body.questions_per_domain = values.domains.map((id) => ({ domain_id: id, questions: count(values.perDomain[id]) }));
  }
  if (values.recipientMode === "people") body.recipients = parseRecipients(values.recipientsText).recipients;
  else body.class_id = values.class_id ? Number(values.class_id) : Number.NaN;
  return body;
}

/**
 * What the form checks itself, in its own words, before the contract: a certification and its
 * domains to choose, and lines of the recipients' box that are no address. Each covers the
 * contract's message for the same problem ("Choose at least one domain.", "Give at least one recipient.").
 */
function ownProblems(values: NewTestValues): FormProblem[] {
  const problems: FormProblem[] = [];
  if (values.certification_id === undefined) problems.push({ path: ["certification_id"], message: "Choose a certification." });
  if (!values.domains.length) {
    const message = values.certification_id === undefined ? "Choose a certification, then tick at least one of its domains." : "Tick at least one domain.";
    problems.push({ path: ["domains"], message, covers: ["questions_per_domain"] });
  }
  if (values.recipientMode === "people") {
    const problem = recipientTextProblem(values.recipientsText) ?? (parseRecipients(values.recipientsText).recipients.length ? undefined : "Enter at least one e-mail address.");
    if (problem) problems.push({ path: ["recipients"], message: problem });
  }
  return problems;
}

/** The body's fields in the order the steps show them, so the list of problems reads top to bottom. */
const stepOrder = [
  "certification_id",
  "domains",
  "questions",
  "questions_per_domain",
  "draw",
  "recipients",
  "class_id",
  "send_email",
  "name",
  "time_limit_minutes",
  "pass_mark",
  "opens_at",
  "closes_at",
  "show_answers",
  "reminder_after_hours",
  "language",
  "shuffle_options",
  "send_result",
  "certificate",
  "record_integrity",
];

/**
 * The form's resolver: the trainer's values → the contract's body, checked as the server checks
 * it (the contract's schema, then the same creation rules), every problem at once.
 */
export const newTestSchema = newTestValues.transform(
  toCheckedBody(createTestInput, toCreateTestBody, {
    own: ownProblems,
    order: stepOrder,
    rules: (body) => creationRules(body).fields.map(({ field, message }) => ({ path: field.split("."), message })),
  }),
);

/** The form as its steps see it: the trainer's values in, the contract's body out. */
export type NewTestFormApi = UseFormReturn<z.input<typeof newTestSchema>, unknown, z.output<typeof newTestSchema>>;
