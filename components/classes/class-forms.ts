import { z } from "zod";
import { checkedBy } from "@/components/forms/checked-by";
import { createClassInput, inviteStudentsInput, type CreateClassInput } from "@/lib/classes/schemas";
import { parseEmails } from "./emails";

/**
 * The class forms as the trainer fills them (the certification as the select holds it, the
 * students as one textarea), turned into the bodies of `POST /classes` and
 * `POST /classes/{id}/invitations` and checked by the contracts' own schemas. Errors of the
 * addresses are at `emails.<n>`, as the server reports them.
 */
export const newClassSchema = z
  .object({ name: z.string(), certification_id: z.string(), emailsText: z.string() })
  .superRefine((values, ctx) => {
    if (!values.certification_id) ctx.addIssue({ code: "custom", path: ["certification_id"], message: "Choose a certification." });
  })
  .transform((values): CreateClassInput => ({ name: values.name, certification_id: Number(values.certification_id), emails: parseEmails(values.emailsText) }))
  .superRefine(checkedBy(createClassInput));

export const inviteStudentsSchema = z
  .object({ emailsText: z.string() })
  .transform((values) => ({ emails: parseEmails(values.emailsText) }))
  .superRefine(checkedBy(inviteStudentsInput));
