import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db";
import { transactionWithRetry } from "@/db/transaction";
import { certifications, classes, type ClassInvitation, classInvitations, recipients, users, workspaces } from "@/db/schema";
import { conflict, invalidFields, notFound } from "@/lib/kernel/errors";
import { hashToken, isTokenShaped } from "@/lib/platform/security/tokens";
import { lockWorkspace } from "@/lib/platform/workspaces/lock";
import { joinOwner, senderColumns, senderName } from "@/lib/platform/workspaces/sender";
import type { ClassView, InviteStudentsInput } from "./schemas";
import { checkStudentLimit, duplicates, findClass, getClass, newInvitations, queueClassInvitations } from "./classes";
/** Invites more students; an address already in the class is a field error (re-send instead). */
export async function inviteStudents(db: Db, workspaceId: string, classId: number, parsed: InviteStudentsInput): Promise<ClassView> {
  const fields = duplicates(parsed.emails);
  if (fields.length) throw invalidFields(fields);
  const klass = await findClass(db, workspaceId, classId);
  const emails = parsed.emails.map(({ email }) => email);
  const present = await db
    .select({ email: classInvitations.email, status: classInvitations.status })
    .from(classInvitations)
    .where(and(eq(classInvitations.classId, klass.id), inArray(classInvitations.email, emails)));
  if (present.length) {
    throw invalidFields(
      present.map(({ email, status }) => ({
        field: `emails.${emails.indexOf(email)}`,
        message: status === "joined" ? `${email} is already a student of this class.` : `${email} is already invited to this class; re-send the invitation instead.`,
      })),
    );
  }
  await transactionWithRetry(db, async (tx) => {
    const workspace = await lockWorkspace(tx, workspaceId);
    await checkStudentLimit(tx, workspace, emails);
    const [certification] = await tx.select({ name: certifications.name }).from(certifications).where(eq(certifications.id, klass.certificationId));
    const invitations = await tx.insert(classInvitations).values(newInvitations(klass, parsed.emails)).returning();
    await queueClassInvitations(tx, klass, certification.name, workspace, invitations);
  });
  return getClass(db, workspaceId, klass.id);
}

/** Sends a pending invitation's e-mail again (same link); a joined student → 409. */
export async function resendInvitation(db: Db, workspaceId: string, classId: number, invitationId: number): Promise<void> {
  const klass = await findClass(db, workspaceId, classId);
  await transactionWithRetry(db, async (tx) => {
    const [invitation] = await tx
      .select()
      .from(classInvitations)
      .where(and(eq(classInvitations.id, invitationId), eq(classInvitations.classId, klass.id)))
      .for("update");
    if (!invitation) throw notFound("Invitation");
    if (invitation.status === "joined") throw conflict(`${invitation.email} has already joined.`);
    const [workspace] = await tx.select({ name: workspaces.name, defaultLanguage: workspaces.defaultLanguage }).from(workspaces).where(eq(workspaces.id, workspaceId));
    const [certification] = await tx.select({ name: certifications.name }).from(certifications).where(eq(certifications.id, klass.certificationId));
    const [updated] = await tx.update(classInvitations).set({ lastSentAt: new Date() }).where(eq(classInvitations.id, invitation.id)).returning();
    await queueClassInvitations(tx, klass, certification.name, workspace, [updated]);
  });
}

/**
 * Removes a joined student from the class: their membership (the accepted invitation) is
 * deleted, which frees their place among the plan's students unless another class of the
 * workspace has them too. Tests already sent to them stay as they are, with their results
 * (in the test, its CSV and the student's own area); they get no further test of this class
 * and leave its progress view. One request removes them; any other, at once or later, finds
 * no such student (404).
 */
export async function removeStudent(db: Db, workspaceId: string, classId: number, studentId: number): Promise<void> {
  const klass = await findClass(db, workspaceId, classId);
  const [removed] = await db
    .delete(classInvitations)
    .where(and(eq(classInvitations.id, studentId), eq(classInvitations.classId, klass.id), eq(classInvitations.status, "joined")))
    .returning({ id: classInvitations.id });
  if (!removed) throw notFound("Student");
}

/**
 * Cancels a pending invitation: it is deleted, its link stops working and its place among the
 * plan's students is free again. An invitation already cancelled is gone (404, as a missing
 * one); one the student accepted is a membership (409: remove the student instead).
 */
export async function cancelInvitation(db: Db, workspaceId: string, classId: number, invitationId: number): Promise<void> {
  const klass = await findClass(db, workspaceId, classId);
  const [cancelled] = await db
    .delete(classInvitations)
    .where(and(eq(classInvitations.id, invitationId), eq(classInvitations.classId, klass.id), eq(classInvitations.status, "pending")))
    .returning({ id: classInvitations.id });
  if (cancelled) return;
  const [joined] = await db
    .select({ email: classInvitations.email })
    .from(classInvitations)
    .where(and(eq(classInvitations.id, invitationId), eq(classInvitations.classId, klass.id)));
  if (joined) throw conflict(`${joined.email} has accepted this invitation and is a student of the class: remove the student instead.`);
  throw notFound("Invitation");
}

export type InvitationLookup = { invitation: ClassInvitation; className: string; certification: string; trainer: string };

export async function findInvitation(db: Db, token: string): Promise<InvitationLookup | undefined> {
  if (!isTokenShaped(token)) return undefined;
  const [row] = await db
    .select({ invitation: classInvitations, className: classes.name, certification: certifications.name, sender: senderColumns })
    .from(classInvitations)
    .innerJoin(classes, eq(classes.id, classInvitations.classId))
    .innerJoin(certifications, eq(certifications.id, classes.certificationId))
    .innerJoin(workspaces, eq(workspaces.id, classes.workspaceId))
    .innerJoin(users, joinOwner)
    .where(eq(classInvitations.tokenHash, hashToken(token)));
  if (!row) return undefined;
  const { sender, ...found } = row;
  return { ...found, trainer: senderName(sender) };
}

/**
 * A signed-in student accepts an invitation. The invitation is personal: the account's
 * e-mail must be the invited address (the magic link proved the student owns it).
 */
export async function joinClass(db: Db, token: string, user: { id: string; email: string }): Promise<InvitationLookup> {
  const found = await findInvitation(db, token);
  if (!found) throw notFound("Invitation");
  if (found.invitation.email !== user.email.toLowerCase()) {
    throw conflict(`This invitation was sent to ${found.invitation.email}. Sign in with that address to join.`);
  }
  if (found.invitation.status === "joined") return found;
  const [updated] = await db
    .update(classInvitations)
    .set({ status: "joined", studentUserId: user.id, joinedAt: new Date() })
    .where(and(eq(classInvitations.id, found.invitation.id), eq(classInvitations.status, "pending")))
    .returning();
  // Cancelled (deleted) since it was read: the link no longer names an invitation.
  if (!updated && !(await findInvitation(db, token))) throw notFound("Invitation");
  // Tests already sent to this address become the student's own.
  await db
    .update(recipients)
    .set({ studentUserId: user.id })
    .where(and(eq(recipients.email, user.email.toLowerCase()), eq(recipients.workspaceId, found.invitation.workspaceId)));
  return { ...found, invitation: updated ?? found.invitation };
}
