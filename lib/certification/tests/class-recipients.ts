import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/db";
import { certifications, classes, type ClassInvitation, classInvitations, users } from "@/db/schema";
import type { FieldError } from "@/lib/kernel/errors";
import type { NewRecipient } from "./recipients";
/** What a student is called: the account's own name, else the one given with the invitation. */
export function studentName(accountName: string | null, invitation: ClassInvitation): string | null {
  return accountName || invitation.name || null;
}

/**
 * Who a test sent to a class goes to: its joined students at this moment, each with their
 * name. Field errors: another workspace's (or no) class, a class nobody has joined yet, and a
 * test of another certification than the class's (`certificationId`, when it names one in the
 * catalog), so the class's progress compares like with like.
 */
export async function classRecipients(
  db: Db,
  workspaceId: string,
  classId: number,
  certificationId: number | undefined,
): Promise<{ fields: FieldError[]; people: NewRecipient[] }> {
  const [found] = await db
    .select({ klass: classes, certification: certifications.name })
    .from(classes)
    .innerJoin(certifications, eq(certifications.id, classes.certificationId))
    .where(and(eq(classes.id, classId), eq(classes.workspaceId, workspaceId)));
  if (!found) return { fields: [{ field: "class_id", message: "No such class." }], people: [] };
  const { klass, certification } = found;
  const fields: FieldError[] = [];
  if (certificationId !== undefined && certificationId !== klass.certificationId) {
    fields.push({
      field: "certification_id",
      message: `The class ${klass.name} is for ${certification} (certification_id ${klass.certificationId}): a test sent to it uses that certification.`,
    });
  }
  const students = await db
    .select({ invitation: classInvitations, name: users.name })
    .from(classInvitations)
    .leftJoin(users, eq(users.id, classInvitations.studentUserId))
    .where(and(eq(classInvitations.classId, klass.id), eq(classInvitations.status, "joined")))
    .orderBy(asc(classInvitations.id));
  if (students.length === 0) fields.push({ field: "class_id", message: "This class has no joined students yet." });
  const people = students.map(({ invitation, name }) => ({
    email: invitation.email,
    name: (studentName(name, invitation) ?? "").slice(0, 200),
    studentUserId: invitation.studentUserId,
  }));
  return { fields, people };
}
