import { createElement } from "react";
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { transactionWithRetry } from "@/db/transaction";
import { certifications, classInvitations, classes, recipients, tests, users, workspaces, type Class, type ClassInvitation, type Workspace } from "@/db/schema";
import { offsetOf, page, type Page, type Paging } from "@/lib/api/paging";
import { visibleTo } from "@/lib/certification/catalog";
import { queueEmails } from "@/lib/email/send";
import { ClassInvitationEmail } from "@/lib/email/templates/class-invitation";
import { conflict, invalidFields, notFound, planLimit, type FieldError } from "@/lib/errors";
import { planLimits } from "@/lib/plans";
import { deliveryFor, latestEmailDeliveries } from "@/lib/tests/email-status";
import { invitationLink, isTokenShaped, newToken } from "@/lib/tests/links";
import { lockWorkspace } from "@/lib/workspaces/lock";
import { type ClassProgressView, type ClassSummaryView, type ClassView, type NewClass, type InviteStudentsInput } from "./schemas";

function duplicates(emails: string[]): FieldError[] {
  const seen = new Set<string>();
  return emails.flatMap((email, index) => {
    if (seen.has(email)) return [{ field: `emails.${index}`, message: `${email} appears twice.` }];
    seen.add(email);
    return [];
  });
}

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
      const props = { className: klass.name, certification, link: invitationLink(invitation.token), trainer };
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
    await checkStudentLimit(tx, workspace, parsed.emails);
    const [klass] = await tx.insert(classes).values({ workspaceId, name: parsed.name, certificationId: certification.id }).returning();
    if (parsed.emails.length) {
      const invitations = await tx
        .insert(classInvitations)
        .values(parsed.emails.map((email) => ({ classId: klass.id, workspaceId, email, token: newToken() })))
        .returning();
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
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({ klass: classes, certification: certifications.name, ...classCounts })
      .from(classes)
      .innerJoin(certifications, eq(certifications.id, classes.certificationId))
      .where(where)
      .orderBy(desc(classes.createdAt), desc(classes.id))
      .limit(paging.per_page)
      .offset(offsetOf(paging)),
    db.select({ total: sql<number>`count(*)::int` }).from(classes).where(where),
  ]);
  return page(
    rows.map(({ klass, certification, students, pending }) => ({
      id: klass.id,
      name: klass.name,
      certification_id: klass.certificationId,
      certification,
      students,
      pending_invitations: pending,
      created_at: klass.createdAt.toISOString(),
    })),
    paging,
    total,
  );
}

export async function findClass(db: Db, workspaceId: string, classId: number): Promise<Class> {
  const [klass] = await db.select().from(classes).where(and(eq(classes.id, classId), eq(classes.workspaceId, workspaceId)));
  if (!klass) throw notFound("Class");
  return klass;
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
      invitation_id: invitation.id,
      email: invitation.email,
      name: name ?? null,
      joined_at: invitation.joinedAt!.toISOString(),
    })),
    invitations: pending.map(({ invitation }) => ({
      id: invitation.id,
      email: invitation.email,
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
  const present = await db
    .select({ email: classInvitations.email })
    .from(classInvitations)
    .where(and(eq(classInvitations.classId, klass.id), inArray(classInvitations.email, parsed.emails)));
  if (present.length) {
    throw invalidFields(
      present.map(({ email }) => ({ field: `emails.${parsed.emails.indexOf(email)}`, message: `${email} is already invited to this class; re-send the invitation instead.` })),
    );
  }
  await transactionWithRetry(db, async (tx) => {
    const workspace = await lockWorkspace(tx, workspaceId);
    await checkStudentLimit(tx, workspace, parsed.emails);
    const [certification] = await tx.select({ name: certifications.name }).from(certifications).where(eq(certifications.id, klass.certificationId));
    const invitations = await tx
      .insert(classInvitations)
      .values(parsed.emails.map((email) => ({ classId: klass.id, workspaceId, email, token: newToken() })))
      .returning();
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

export type InvitationLookup = { invitation: ClassInvitation; className: string; certification: string; trainer: string };

export async function findInvitation(db: Db, token: string): Promise<InvitationLookup | undefined> {
  if (!isTokenShaped(token)) return undefined;
  const [row] = await db
    .select({ invitation: classInvitations, className: classes.name, certification: certifications.name, trainer: workspaces.name })
    .from(classInvitations)
    .innerJoin(classes, eq(classes.id, classInvitations.classId))
    .innerJoin(certifications, eq(certifications.id, classes.certificationId))
    .innerJoin(workspaces, eq(workspaces.id, classes.workspaceId))
    .where(eq(classInvitations.token, token));
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
  // Tests already sent to this address become the student's own.
  await db
    .update(recipients)
    .set({ studentUserId: user.id })
    .where(and(eq(recipients.email, user.email.toLowerCase()), eq(recipients.workspaceId, found.invitation.workspaceId)));
  return { ...found, invitation: updated ?? found.invitation };
}

/** Per student: tests of this class sent, started, completed, averages overall and per domain. */
export async function classProgress(db: Db, workspaceId: string, classId: number): Promise<ClassProgressView> {
  const klass = await findClass(db, workspaceId, classId);
  const invitations = await db
    .select({ invitation: classInvitations, name: users.name })
    .from(classInvitations)
    .leftJoin(users, eq(users.id, classInvitations.studentUserId))
    .where(eq(classInvitations.classId, klass.id))
    .orderBy(asc(classInvitations.status), asc(classInvitations.email));
  const sent = await db
    .select({ recipient: recipients })
    .from(recipients)
    .innerJoin(tests, eq(tests.id, recipients.testId))
    .where(and(eq(tests.classId, klass.id), eq(tests.workspaceId, workspaceId)));
  const domainNames = new Map<number, string>();
  const students = invitations.map(({ invitation, name }) => {
    const mine = sent.map((s) => s.recipient).filter((r) => r.email === invitation.email);
    const completed = mine.filter((r) => r.status === "completed" && r.result);
    const perDomain = new Map<number, { name: string; sum: number; n: number }>();
    for (const r of completed) {
      for (const d of r.result!.domains) {
        domainNames.set(d.id, d.name);
        const entry = perDomain.get(d.id) ?? { name: d.name, sum: 0, n: 0 };
        entry.sum += d.percent;
        entry.n += 1;
        perDomain.set(d.id, entry);
      }
    }
    const activity = mine.map((r) => r.lastActivityAt ?? r.sentAt).sort((a, b) => b.getTime() - a.getTime())[0];
    const round1 = (value: number) => Math.round(value * 10) / 10;
    return {
      email: invitation.email,
      name: name ?? null,
      status: invitation.status,
      tests_sent: mine.length,
      tests_started: mine.filter((r) => r.status !== "sent").length,
      tests_completed: completed.length,
      average_percent: completed.length ? round1(completed.reduce((sum, r) => sum + r.result!.percent, 0) / completed.length) : null,
      domains: [...perDomain.entries()].map(([id, d]) => ({ id, name: d.name, average_percent: round1(d.sum / d.n) })),
      last_activity_at: (activity ?? invitation.joinedAt)?.toISOString() ?? null,
    };
  });
  return {
    class_id: klass.id,
    domains: [...domainNames.entries()].map(([id, name]) => ({ id, name })).sort((a, b) => a.id - b.id),
    students,
  };
}
