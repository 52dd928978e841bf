import { z } from "zod";
import { checkedBy } from "@/components/forms/checked-by";
import { createClassInput, inviteStudentsInput, type CreateClassInput, type InviteStudentsBody } from "@/lib/certification/classes/schemas";
import { parseRecipients, recipientTextProblem } from "@/lib/certification/tests/parse-recipients";

/** The students typed or pasted, as the body lists them: `{ email, name }`, read as test recipients are. */
export const studentsOf = (text: string) => parseRecipients(text).recipients;

/** Pieces of the textarea that are not addresses block the form, under `emails`. */
function textProblem(values: { emailsText: string }, ctx: z.RefinementCtx) {
  const problem = recipientTextProblem(values.emailsText);
  if (problem) ctx.addIssue({ code: "custom", path: ["emails"], message: problem });
}

/**
 * The class forms as the trainer fills them (the certification as the select holds it, the
 * students as one textarea: an address, `Name <email>` or `email, name` each), turned into
 * the bodies of `POST /classes` and `POST /classes/{id}/invitations` and checked by the
 * contracts' own schemas. Errors of the addresses are at `emails.<n>`, as the server reports them.
 */
export const newClassSchema = z
  .object({ name: z.string(), certification_id: z.string(), emailsText: z.string() })
  .superRefine((values, ctx) => {
    if (!values.certification_id) ctx.addIssue({ code: "custom", path: ["certification_id"], message: "Choose a certification." });
    textProblem(values, ctx);
  })
  .transform((values): CreateClassInput => ({ name: values.name, certification_id: Number(values.certification_id), emails: studentsOf(values.emailsText) }))
  .superRefine(checkedBy(createClassInput));

export const inviteStudentsSchema = z
  .object({ emailsText: z.string() })
  .superRefine(textProblem)
  .transform((values): InviteStudentsBody => ({ emails: studentsOf(values.emailsText) }))
  .superRefine(checkedBy(inviteStudentsInput));
