import type { UseFormReturn } from "react-hook-form";
import { z } from "zod";
import { checkedBy } from "@/components/forms/checked-by";
import { creationRules } from "@/lib/tests/rules";
import { createTestInput, type CreateTestInput } from "@/lib/tests/schemas";
import { parseRecipients, recipientTextProblem } from "../parse-recipients";

/**
 * What the new-test form holds: the trainer's choices as typed (counts as text, recipients as
 * one textarea), one value per control. `toCreateTestBody` turns them into the body of
 * `POST /api/v1/tests`, which is then checked by the contract's own schema and the same
 * creation rules the server applies (lib/tests/rules.ts): one set of rules, in two places.
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
});
export type NewTestValues = z.infer<typeof newTestValues>;

/** A typed count, or NaN (the body's schema says what is wrong with it). */
const count = (text: string | undefined): number => (text !== undefined && /^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN);

export function toCreateTestBody(values: NewTestValues): CreateTestInput {
  const body: CreateTestInput = { certification_id: values.certification_id ?? Number.NaN, send_email: values.send_email };
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

const withCreationRules = createTestInput.superRefine((body, ctx) => {
  for (const { field, message } of creationRules(body).fields) ctx.addIssue({ code: "custom", path: field.split("."), message });
});

/** The form's resolver: the trainer's values → the contract's body, checked as the server checks it. */
export const newTestSchema = newTestValues
  .superRefine((values, ctx) => {
    if (values.certification_id === undefined) ctx.addIssue({ code: "custom", path: ["certification_id"], message: "Choose a certification." });
    else if (!values.domains.length) ctx.addIssue({ code: "custom", path: ["domains"], message: "Tick at least one domain." });
    const problem = values.recipientMode === "people" ? recipientTextProblem(values.recipientsText) : undefined;
    if (problem) ctx.addIssue({ code: "custom", path: ["recipients"], message: problem });
  })
  .transform(toCreateTestBody)
  .superRefine(checkedBy(withCreationRules));

/** The form as its steps see it: the trainer's values in, the contract's body out. */
export type NewTestFormApi = UseFormReturn<z.input<typeof newTestSchema>, unknown, z.output<typeof newTestSchema>>;
