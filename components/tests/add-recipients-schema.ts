import { z } from "zod";
import { toCheckedBody } from "@/components/forms/checked-by";
import { addRecipientsInput, type AddRecipientsInput } from "@/lib/certification/tests/schemas";
import { parseRecipients, recipientTextProblem } from "./parse-recipients";

/** The "Add recipients" form: a textarea of people and the e-mail choice → the body of POST /tests/{code}/recipients. */
export const addRecipientsValues = z.object({ recipientsText: z.string(), send_email: z.boolean() });
export type AddRecipientsValues = z.infer<typeof addRecipientsValues>;

export const addRecipientsSchema = addRecipientsValues.transform(
  // The lines that are not addresses and the contract's checks of the others in one pass (toCheckedBody).
  toCheckedBody(addRecipientsInput, (values): AddRecipientsInput => ({ recipients: parseRecipients(values.recipientsText).recipients, send_email: values.send_email }), {
    own: (values) => {
      const problem = recipientTextProblem(values.recipientsText);
      return problem ? [{ path: ["recipients"], message: problem }] : [];
    },
  }),
);
