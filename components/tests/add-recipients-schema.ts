import { z } from "zod";
import { checkedBy } from "@/components/forms/checked-by";
import { addRecipientsInput, type AddRecipientsInput } from "@/lib/certification/tests/schemas";
import { parseRecipients, recipientTextProblem } from "./parse-recipients";

/** The "Add recipients" form: a textarea of people and the e-mail choice → the body of POST /tests/{code}/recipients. */
export const addRecipientsValues = z.object({ recipientsText: z.string(), send_email: z.boolean() });
export type AddRecipientsValues = z.infer<typeof addRecipientsValues>;

export const addRecipientsSchema = addRecipientsValues
  .superRefine((values, ctx) => {
    const problem = recipientTextProblem(values.recipientsText);
    if (problem) ctx.addIssue({ code: "custom", path: ["recipients"], message: problem });
  })
  .transform((values): AddRecipientsInput => ({ recipients: parseRecipients(values.recipientsText).recipients, send_email: values.send_email }))
  .superRefine(checkedBy(addRecipientsInput));
