import { createElement } from "react";
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { countRows, readPage } from "@/lib/kernel/paged";
import { transactionWithRetry } from "@/db/transaction";
import { certifications, classInvitations, classes, recipients, tests, users, workspaces, type Class, type ClassInvitation, type Workspace } from "@/db/schema";
import type { Page, Paging } from "@/lib/kernel/paging";
import { visibleTo } from "@/lib/certification/catalog/catalog";
import { queueEmails } from "@/lib/platform/pipeline/channels/email/deliver";
import { ClassInvitationEmail } from "@/lib/certification/emails/class-invitation";
import { conflict, invalidFields, notFound, planLimit, type FieldError } from "@/lib/kernel/errors";
import { planLimits } from "@/lib/platform/workspaces/plans";
import { hashToken, storedToken } from "@/lib/platform/security/tokens";
import { deliveryFor, latestEmailDeliveries } from "@/lib/certification/tests/email-status";
import type { NewRecipient } from "@/lib/certification/tests/recipients";
import { invitationLink, isTokenShaped, newToken } from "@/lib/certification/tests/links";
import { lockWorkspace } from "@/lib/platform/workspaces/lock";
import { type ClassProgressView, type ClassSummaryView, type ClassView, type NewClass, type InviteStudentsInput, type StudentInput } from "./schemas";

function duplicates(students: StudentInput[]): FieldError[] {
  const seen = new Set<string>();
  return students.flatMap(({ email }, index) => {
    if (seen.has(email)) return [{ field: `emails.${index}`, message: `${email} appears twice.` }];
    seen.add(email);
    return [];
  });
}

const newInvitations = (klass: Class, students: StudentInput[]) =>
  students.map(({ email, name }) => ({ classId: klass.id, workspaceId: klass.workspaceId, email, name, ...storedToken("class_invitations.token", newToken()) }));

/** Students of the workspace (invited or joined, each address once) must fit the plan; call under lockWorkspace. */
async function checkStudentLimit(tx: Db, workspace: Workspace, newEmails: string[]): Promise<void> {
  const limit = planLimits(workspace.plan).students;
  const existing = await tx
    .selectDistinct({ email: classInvitations.email })
    .from(classInvitations)
    .where(eq(classInvitations.workspaceId, workspace.id));
  const all = new Set([...existing.map((row) => row.email), ...newEmails]);
  if (all.size > limit) {
    throw planLimit(`The ${workspace.plan} plan allows ${limit} students (invited or joined); this would make ${all.size}.`);
  }
}

async function queueClassInvitations(tx: Db, klass: Class, certification: string, trainer: string, invitations: ClassInvitation[]) {
  await queueEmails(
    tx,
    invitations.map((invitation) => {
      const props = { name: invitation.name, className: klass.name, certification, link: invitationLink(invitation), trainer };
      return {
        kind: "class_invitation",
        workspaceId: klass.workspaceId,
        invitationId: invitation.id,
        to: invitation.email,
        subject: `Join the class ${klass.name}`,
        react: createElement(ClassInvitationEmail, props),
        links: [props.link],
      };
    }),
  );
}

/** Creates a class and e-mails each invitation, within the plan's class and student limits. */
export async function createClass(db: Db, workspaceId: string, parsed: NewClass): Promise<ClassView> {
  const fields = duplicates(parsed.emails);
  const [certification] = await db
    .select()
    .from(certifications)
    .where(and(eq(certifications.id, parsed.certification_id), visibleTo(workspaceId)));
  if (!certification) fields.push({ field: "certification_id", message: "No such certification in your catalog." });
  if (fields.length) throw invalidFields(fields);

  const id = await transactionWithRetry(db, async (tx) => {
    const workspace = await lockWorkspace(tx, workspaceId);
    const [{ count }] = await tx.select({ count: sql<number>`count(*)::int` }).from(classes).where(eq(classes.workspaceId, workspaceId));
    const limit = planLimits(workspace.plan).classes;
    if (count >= limit) throw planLimit(`The ${workspace.plan} plan allows ${limit} class${limit === 1 ? "" : "es"}.`);
    await checkStudentLimit(tx, workspace, parsed.emails.map(({ email }) => email));
    const [klass] = await tx.insert(classes).values({ workspaceId, name: parsed.name, certificationId: certification.id }).returning();
    if (parsed.emails.length) {
      const invitations = await tx.insert(classInvitations).values(newInvitations(klass, parsed.emails)).returning();
      await queueClassInvitations(tx, klass, certification.name, workspace.name, invitations);
    }
    return klass.id;
  });
  return getClass(db, workspaceId, id);
}

const classCounts = {
  students: sql<number>`(select count(*)::int from ${classInvitations} i where i.class_id = "classes"."id" and i.status = 'joined')`,
  pending: sql<number>`(select count(*)::int from ${classInvitations} i where i.class_id = "classes"."id" and i.status = 'pending')`,
};

export async function listClasses(db: Db, workspaceId: string, paging: Paging): Promise<Page<ClassSummaryView>> {
  const where = eq(classes.workspaceId, workspaceId);
  return readPage(
    paging,
    db
      .select({ klass: classes, certification: certifications.name, ...classCounts })
      .from(classes)
      .innerJoin(certifications, eq(certifications.id, classes.certificationId))
      .where(where)
      .orderBy(desc(classes.createdAt), desc(classes.id)),
    countRows(db, classes, where),
    ({ klass, certification, students, pending }) => ({
      id: klass.id,
      name: klass.name,
      certification_id: klass.certificationId,
      certification,
      students,
      pending_invitations: pending,
      created_at: klass.createdAt.toISOString(),
    }),
  );
}

export async function findClass(db: Db, workspaceId: string, classId: number): Promise<Class> {
  const [klass] = await db.select().from(classes).where(and(eq(classes.id, classId), eq(classes.workspaceId, workspaceId)));
  if (!klass) throw notFound("Class");
  return klass;
}

/** What a student is called: the account's own name, else the one given with the invitation. */
function studentName(accountName: string | null, invitation: ClassInvitation): string | null {
  return accountName || invitation.name || null;
}

/** The class with its students (joined) and pending invitations. */
export async function getClass(db: Db, workspaceId: string, classId: number): Promise<ClassView> {
  const klass = await findClass(db, workspaceId, classId);
  const [[certification], invitations] = await Promise.all([
    db.select({ name: certifications.name }).from(certifications).where(eq(certifications.id, klass.certificationId)),
    db
      .select({ invitation: classInvitations, name: users.name })
      .from(classInvitations)
      .leftJoin(users, eq(users.id, classInvitations.studentUserId))
      .where(eq(classInvitations.classId, klass.id))
      .orderBy(asc(classInvitations.id)),
  ]);
  const joined = invitations.filter(({ invitation }) => invitation.status === "joined");
  const pending = invitations.filter(({ invitation }) => invitation.status === "pending");
  const deliveries = await latestEmailDeliveries(db, "invitation", pending.map(({ invitation }) => invitation.id));
  return {
    id: klass.id,
    name: klass.name,
    certification_id: klass.certificationId,
    certification: certification.name,
    students: joined.length,
    pending_invitations: pending.length,
    created_at: klass.createdAt.toISOString(),
    emails: invitations.map(({ invitation }) => invitation.email),
    student_list: joined.map(({ invitation, name }) => ({
      id: invitation.id,
      invitation_id: invitation.id,
      email: invitation.email,
      name: studentName(name, invitation),
      joined_at: invitation.joinedAt!.toISOString(),
    })),
    invitations: pending.map(({ invitation }) => ({
      id: invitation.id,
      email: invitation.email,
      name: invitation.name || null,
      invited_at: invitation.invitedAt.toISOString(),
      last_sent_at: invitation.lastSentAt.toISOString(),
      email_delivery: deliveryFor(deliveries, invitation.id),
    })),
  };
}

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
    await queueClassInvitations(tx, klass, certification.name, workspace.name, invitations);
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
    const [workspace] = await tx.select().from(workspaces).where(eq(workspaces.id, workspaceId));
    const [certification] = await tx.select({ name: certifications.name }).from(certifications).where(eq(certifications.id, klass.certificationId));
    const [updated] = await tx.update(classInvitations).set({ lastSentAt: new Date() }).where(eq(classInvitations.id, invitation.id)).returning();
    await queueClassInvitations(tx, klass, certification.name, workspace.name, [updated]);
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
    .select({ invitation: classInvitations, className: classes.name, certification: certifications.name, trainer: workspaces.name })
    .from(classInvitations)
    .innerJoin(classes, eq(classes.id, classInvitations.classId))
    .innerJoin(certifications, eq(certifications.id, classes.certificationId))
    .innerJoin(workspaces, eq(workspaces.id, classes.workspaceId))
    .where(eq(classInvitations.tokenHash, hashToken(token)));
  return row;
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

/**
 * Per student: tests of this class sent, started, completed, averages overall and per domain.
 * A domain is one of its certification's: tests of another certification than the class's
 * (sent before a class's tests had to use it) get columns of their own, never merged with a
 * domain of the same name.
 */
export async function classProgress(db: Db, workspaceId: string, classId: number): Promise<ClassProgressView> {
  const klass = await findClass(db, workspaceId, classId);
  const invitations = await db
    .select({ invitation: classInvitations, name: users.name })
    .from(classInvitations)
    .leftJoin(users, eq(users.id, classInvitations.studentUserId))
    .where(eq(classInvitations.classId, klass.id))
    .orderBy(asc(classInvitations.status), asc(classInvitations.email));
  const sent = await db
    .select({ recipient: recipients, certificationId: tests.certificationId, certification: tests.certificationName })
    .from(recipients)
    .innerJoin(tests, eq(tests.id, recipients.testId))
    .where(and(eq(tests.classId, klass.id), eq(tests.workspaceId, workspaceId)));
  type Column = { id: number; name: string; certification_id: number; certification: string };
  const columns = new Map<string, Column>();
  const keyOf = (certificationId: number, domainId: number) => `${certificationId}:${domainId}`;
  const round1 = (value: number) => Math.round(value * 10) / 10;
  const students = invitations.map(({ invitation, name }) => {
    const mine = sent.filter((s) => s.recipient.email === invitation.email);
    const completed = mine.filter((s) => s.recipient.status === "completed" && s.recipient.result);
    const perDomain = new Map<string, Column & { sum: number; n: number }>();
    for (const { recipient, certificationId, certification } of completed) {
      for (const d of recipient.result!.domains) {
        const key = keyOf(certificationId, d.id);
        columns.set(key, { id: d.id, name: d.name, certification_id: certificationId, certification });
        const entry = perDomain.get(key) ?? { id: d.id, name: d.name, certification_id: certificationId, certification, sum: 0, n: 0 };
        entry.sum += d.percent;
        entry.n += 1;
        perDomain.set(key, entry);
      }
    }
    const activity = mine.map((s) => s.recipient.lastActivityAt ?? s.recipient.sentAt).sort((a, b) => b.getTime() - a.getTime())[0];
    return {
      email: invitation.email,
      name: studentName(name, invitation),
      status: invitation.status,
      tests_sent: mine.length,
      tests_started: mine.filter((s) => s.recipient.status !== "sent").length,
      tests_completed: completed.length,
      average_percent: completed.length ? round1(completed.reduce((sum, s) => sum + s.recipient.result!.percent, 0) / completed.length) : null,
      domains: [...perDomain.values()].map((d) => ({ id: d.id, name: d.name, certification_id: d.certification_id, average_percent: round1(d.sum / d.n) })),
      last_activity_at: (activity ?? invitation.joinedAt)?.toISOString() ?? null,
    };
  });
  // The class's own certification first, then the others by name; domains in id order within each.
  const rank = (column: Column) => (column.certification_id === klass.certificationId ? 0 : 1);
  return {
    class_id: klass.id,
    domains: [...columns.values()].sort(
      (a, b) => rank(a) - rank(b) || a.certification.localeCompare(b.certification) || a.certification_id - b.certification_id || a.id - b.id,
    ),
    students,
  };
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
