import { z } from "zod";
import { invitationStatuses } from "@/db/schema/statuses";
import { rowId } from "@/lib/api/fields";
import { pageSchema } from "@/lib/api/paging";
import { emailDeliveryView } from "@/lib/tests/schemas";

const email = z.string().trim().pipe(z.email("Must be an e-mail address.")).transform((value) => value.toLowerCase());

export const createClassInput = z.object({
  name: z.string().trim().min(1, "Give the class a name.").max(200),
  certification_id: rowId(),
  emails: z.array(email).max(1000).default([]).meta({ description: "Students to invite; each gets an e-mail with a join link." }),
});
export type CreateClassInput = z.input<typeof createClassInput>;
/** A parsed class creation: what `createClass` takes. */
export type NewClass = z.output<typeof createClassInput>;

export const inviteStudentsInput = z.object({
  emails: z.array(email).min(1, "Give at least one e-mail address.").max(1000),
});
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

export const studentView = z.object({ invitation_id: z.number().int(), email: z.string(), name: z.string().nullable(), joined_at: z.string() });
export const invitationView = z.object({
  id: z.number().int(),
  email: z.string(),
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
    domains: z.array(z.object({ id: z.number().int(), name: z.string(), average_percent: z.number() })),
    last_activity_at: z.string().nullable(),
  })
  .meta({ id: "StudentProgress" });
export type StudentProgressView = z.infer<typeof studentProgressView>;

export const classProgressView = z
  .object({
    class_id: z.number().int(),
    domains: z.array(z.object({ id: z.number().int(), name: z.string() })),
    students: z.array(studentProgressView),
  })
  .meta({ id: "ClassProgress" });
export type ClassProgressView = z.infer<typeof classProgressView>;
