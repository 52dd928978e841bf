import { z } from "zod";
import { invitationStatuses } from "@/db/schema/statuses";
import { rowId } from "@/lib/kernel/fields";
import { pageSchema } from "@/lib/kernel/paging";
import { parseRecipients } from "@/lib/certification/tests/parse-recipients";
import { emailDeliveryView, recipientInput } from "@/lib/certification/tests/schemas";

const STUDENT_FORMS = "an address, `Name <address>` or `address, name`";

/**
 * One student to invite, written as test recipients are: a string read by the same parser as
 * the dashboard's recipient box (an address, `Name <address>` or `address, name`), or the
 * object `{ email, name }` of `POST /tests`. Either way: `{ email, name }`, the address
 * lower-cased, the name "" when none is given.
 */
function studentTextProblem(text: string): string | undefined {
  const { recipients, invalid, duplicates } = parseRecipients(text);
  if (recipients.length === 1 && !invalid.length && !duplicates.length) return undefined;
  if (recipients.length + duplicates.length > 1) return `One student per entry: give ${STUDENT_FORMS}.`;
  const message = invalid[0]?.message ?? "No e-mail address.";
  return message === "No e-mail address." ? `No e-mail address: give ${STUDENT_FORMS}.` : message;
}

const studentText = z.string().transform((text, ctx) => {
  const problem = studentTextProblem(text);
  if (!problem) return parseRecipients(text).recipients[0];
  ctx.addIssue({ code: "custom", message: problem });
  return z.NEVER;
});
export const studentInput = z
  .union([studentText, recipientInput], {
    // A string is told what is wrong with it; anything else what an entry may be.
    error: (issue) => (typeof issue.input === "string" ? studentTextProblem(issue.input) : undefined) ?? `Give ${STUDENT_FORMS}, or an object { email, name }.`,
  })
  .meta({ description: `A student: ${STUDENT_FORMS} (e.g. \`Ada Lovelace <ada@example.com>\`), or an object \`{ email, name }\` as test recipients are given.` });
export type StudentInput = z.output<typeof studentInput>;

const students = z.array(studentInput).max(1000);

export const createClassInput = z.object({
  name: z.string().trim().min(1, "Give the class a name.").max(200),
  certification_id: rowId(),
  emails: students.default([]).meta({
    description: `Students to invite; each gets an e-mail with a join link. Each entry is ${STUDENT_FORMS}, or \`{ email, name }\`.`,
  }),
});
export type CreateClassInput = z.input<typeof createClassInput>;
/** A parsed class creation: what `createClass` takes. */
export type NewClass = z.output<typeof createClassInput>;

export const inviteStudentsInput = z.object({
  emails: students.min(1, "Give at least one e-mail address.").meta({ description: `Each entry is ${STUDENT_FORMS}, or \`{ email, name }\`.` }),
});
export type InviteStudentsBody = z.input<typeof inviteStudentsInput>;
export type InviteStudentsInput = z.output<typeof inviteStudentsInput>;

export const classSummaryView = z
  .object({
    id: z.number().int(),
    name: z.string(),
    certification_id: z.number().int(),
    certification: z.string(),
    students: z.number().int().meta({ description: "Joined students." }),
    pending_invitations: z.number().int(),
    created_at: z.string(),
  })
  .meta({ id: "ClassSummary" });
export type ClassSummaryView = z.infer<typeof classSummaryView>;

export const studentView = z.object({
  id: z.number().int().meta({ description: "Not in the specification (additive): the student's id in this class, `{student_id}` of `DELETE /classes/{id}/students/{student_id}` (the same number as `invitation_id`)." }),
  invitation_id: z.number().int().meta({ description: "The invitation the student accepted." }),
  email: z.string(),
  name: z.string().nullable().meta({ description: "The name of the student's account, else the name given with the invitation; null when neither." }),
  joined_at: z.string(),
});
export const invitationView = z.object({
  id: z.number().int().meta({ description: "`{invitation_id}` of the resend and cancel routes." }),
  email: z.string(),
  name: z.string().nullable().meta({ description: "Not in the specification (additive): the name given with the invitation (`Name <address>`, `address, name` or `{ email, name }`); null when none." }),
  invited_at: z.string(),
  last_sent_at: z.string(),
  /** Not in the specification (additive): the latest invitation e-mail and what became of it. */
  email_delivery: emailDeliveryView,
});

export const classView = classSummaryView
  .extend({
    emails: z.array(z.string()).meta({ description: "Every address invited to the class." }),
    student_list: z.array(studentView),
    invitations: z.array(invitationView).meta({ description: "Pending invitations." }),
  })
  .meta({ id: "Class" });
export type ClassView = z.infer<typeof classView>;

export const classList = pageSchema(classSummaryView).meta({ id: "ClassList" });

export const studentProgressView = z
  .object({
    email: z.string(),
    name: z.string().nullable(),
    status: z.enum(invitationStatuses),
    tests_sent: z.number().int(),
    tests_started: z.number().int(),
    tests_completed: z.number().int(),
    average_percent: z.number().nullable(),
    domains: z.array(
      z.object({
        id: z.number().int(),
        name: z.string(),
        certification_id: z.number().int().meta({ description: "Not in the specification (additive): the certification of the tests this average is over." }),
        average_percent: z.number(),
      }),
    ),
    last_activity_at: z.string().nullable(),
  })
  .meta({ id: "StudentProgress" });
export type StudentProgressView = z.infer<typeof studentProgressView>;

export const classProgressView = z
  .object({
    class_id: z.number().int(),
    domains: z
      .array(
        z.object({
          id: z.number().int(),
          name: z.string(),
          certification_id: z.number().int(),
          certification: z.string().meta({ description: "Its name when the tests were sent." }),
        }),
      )
      .meta({
        description:
          "Every domain with a result, by certification: the class's own certification first, then any other a test of the class was sent for " +
          "(before a class's tests had to use its certification). `certification_id` and `certification` are additive; a domain is one of its certification's, never merged with a namesake.",
      }),
    students: z.array(studentProgressView),
  })
  .meta({ id: "ClassProgress" });
export type ClassProgressView = z.infer<typeof classProgressView>;
