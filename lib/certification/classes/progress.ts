import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/db";
import { classInvitations, recipients, tests, users } from "@/db/schema";
import type { ClassProgressView } from "./schemas";
import { studentName } from "@/lib/certification/tests/class-recipients";
import { findClass } from "./classes";
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
    .select({
      recipient: { email: recipients.email, status: recipients.status, result: recipients.result, lastActivityAt: recipients.lastActivityAt, sentAt: recipients.sentAt },
      certificationId: tests.certificationId,
      certification: tests.certificationName,
    })
    .from(recipients)
    .innerJoin(tests, eq(tests.id, recipients.testId))
    .where(and(eq(tests.classId, klass.id), eq(tests.workspaceId, workspaceId)));
  // Each student's recipients by address, grouped once (a filter per student would be students × recipients).
  const sentTo = new Map<string, typeof sent>();
  for (const row of sent) {
    const list = sentTo.get(row.recipient.email);
    if (list) list.push(row);
    else sentTo.set(row.recipient.email, [row]);
  }
  type Column = { id: number; name: string; certification_id: number; certification: string };
  const columns = new Map<string, Column>();
  const keyOf = (certificationId: number, domainId: number) => `${certificationId}:${domainId}`;
  const round1 = (value: number) => Math.round(value * 10) / 10;
  const students = invitations.map(({ invitation, name }) => {
    const mine = sentTo.get(invitation.email) ?? [];
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
