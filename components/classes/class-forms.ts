import { z } from "zod";
import { toCheckedBody, type FormProblem } from "@/components/forms/checked-by";
import { createClassInput, inviteStudentsInput, type CreateClassInput, type InviteStudentsBody } from "@/lib/certification/classes/schemas";
import { parseRecipients, recipientTextProblem } from "@/lib/certification/tests/parse-recipients";

/** The students typed or pasted, as the body lists them: `{ email, name }`, read as test recipients are. */
export const studentsOf = (text: string) => parseRecipients(text).recipients;

/** Pieces of the textarea that are not addresses block the form, under `emails`. */
function textProblems(values: { emailsText: string }): FormProblem[] {
  const problem = recipientTextProblem(values.emailsText);
  return problem ? [{ path: ["emails"], message: problem }] : [];
}

/**
 * The class forms as the trainer fills them (the certification as the select holds it, the
 * students as one textarea: an address, `Name <email>` or `email, name` each), turned into
 * the bodies of `POST /classes` and `POST /classes/{id}/invitations` and checked by the
 * contracts' own schemas, every problem at once. Errors of the addresses are at `emails.<n>`, as the server reports them.
 */
export const newClassSchema = z.object({ name: z.string(), certification_id: z.string(), emailsText: z.string() }).transform(
  toCheckedBody(createClassInput, (values): CreateClassInput => ({ name: values.name, certification_id: Number(values.certification_id), emails: studentsOf(values.emailsText) }), {
    own: (values) => [...(values.certification_id ? [] : [{ path: ["certification_id"], message: "Choose a certification." }]), ...textProblems(values)],
  }),
);

export const inviteStudentsSchema = z
  .object({ emailsText: z.string() })
  .transform(toCheckedBody(inviteStudentsInput, (values): InviteStudentsBody => ({ emails: studentsOf(values.emailsText) }), { own: textProblems }));
