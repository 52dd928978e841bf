import { createElement } from "react";
import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { countRows, readPage } from "@/lib/kernel/paged";
import { transactionWithRetry } from "@/db/transaction";
import { certifications, type Class, classes, type ClassInvitation, classInvitations, users, type Workspace } from "@/db/schema";
import type { Page, Paging } from "@/lib/kernel/paging";
import { holdCertification, visibleTo } from "@/lib/certification/catalog/catalog";
import { ClassInvitationEmail, classInvitationSubject } from "@/lib/certification/emails/class-invitation";
import { type FieldError, invalidFields, notFound, planLimit } from "@/lib/kernel/errors";
import { planLimits } from "@/lib/platform/workspaces/plans";
import { newToken, storedToken } from "@/lib/platform/security/tokens";
import { deliveryFor, latestEmailDeliveries } from "@/lib/certification/tests/email-status";
import { lockWorkspace } from "@/lib/platform/workspaces/lock";
import type { ClassSummaryView, ClassView, NewClass, StudentInput } from "./schemas";
import { queueEmails } from "@/lib/platform/pipeline/channels/email/queue";
import { studentName } from "@/lib/certification/tests/class-recipients";
import { unseal } from "@/lib/platform/security/sealing";
import { appUrl } from "@/lib/kernel/config/config";
import { workspaceSender } from "@/lib/platform/workspaces/sender";

export function duplicates(students: StudentInput[]): FieldError[] {
  const seen = new Set<string>();
  return students.flatMap(({ email }, index) => {
    if (seen.has(email)) return [{ field: `emails.${index}`, message: `${email} appears twice.` }];
    seen.add(email);
    return [];
  });
}

export const newInvitations = (klass: Class, students: StudentInput[]) =>
  students.map(({ email, name }) => ({ classId: klass.id, workspaceId: klass.workspaceId, email, name, ...storedToken("class_invitations.token", newToken()) }));

/** Students of the workspace (invited or joined, each address once) must fit the plan; call under lockWorkspace. */
export async function checkStudentLimit(tx: Db, workspace: Workspace, newEmails: string[]): Promise<void> {
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

/**
 * Queues the e-mail of each invitation, in the workspace's default language (a class has no
 * language of its own, and the student has no page open yet to tell us theirs). `workspace` is
 * read by the caller in this transaction.
 */
export async function queueClassInvitations(
  tx: Db,
  klass: Class,
  certification: string,
  workspace: Pick<Workspace, "defaultLanguage">,
  invitations: ClassInvitation[],
) {
  const locale = workspace.defaultLanguage;
  const subject = classInvitationSubject(locale, klass.name);
  const trainer = await workspaceSender(tx, klass.workspaceId);
  await queueEmails(
    tx,
    invitations.map((invitation) => {
      const props = { locale, name: invitation.name, className: klass.name, certification, link: invitationLink(invitation), trainer };
      return {
        kind: "class_invitation",
        workspaceId: klass.workspaceId,
        invitationId: invitation.id,
        to: invitation.email,
        subject,
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
    await holdCertification(tx, workspaceId, certification.id);
    const [{ count }] = await tx.select({ count: sql<number>`count(*)::int` }).from(classes).where(eq(classes.workspaceId, workspaceId));
    const limit = planLimits(workspace.plan).classes;
    if (count >= limit) throw planLimit(`The ${workspace.plan} plan allows ${limit} class${limit === 1 ? "" : "es"}.`);
    await checkStudentLimit(tx, workspace, parsed.emails.map(({ email }) => email));
    const [klass] = await tx.insert(classes).values({ workspaceId, name: parsed.name, certificationId: certification.id }).returning();
    if (parsed.emails.length) {
      const invitations = await tx.insert(classInvitations).values(newInvitations(klass, parsed.emails)).returning();
      await queueClassInvitations(tx, klass, certification.name, workspace, invitations);
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

export function invitationLink(invitation: Pick<ClassInvitation, "tokenSealed">): string {
  return `${appUrl()}/join/${unseal("class_invitations.token", invitation.tokenSealed)}`;
}
