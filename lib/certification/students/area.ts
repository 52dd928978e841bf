import { and, desc, eq, or } from "drizzle-orm";
import type { Db } from "@/db";
import { certifications, classes, classInvitations, recipients, tests, users, workspaces, type RecipientResult, type RecipientStatus } from "@/db/schema";
import { joinOwner, senderColumns, senderName } from "@/lib/platform/workspaces/sender";
import { recipientLink, recipientToken } from "@/lib/certification/tests/links";
import { testName } from "@/lib/certification/tests/settings";

export type StudentClass = {
  id: number;
  name: string;
  certification: string;
  trainer: string;
  joined_at: string | null;
};

export type StudentTest = {
  recipient_id: number;
  code: string;
  /** The test's name (default "{certification} test"). */
  name: string;
  certification: string;
  trainer: string;
  status: RecipientStatus;
  /** The personal link as e-mailed (absolute, from APP_URL). */
  link: string;
  /** The same link as a same-site path, for links inside the app. */
  path: string;
  sent_at: string;
  started_at: string | null;
  completed_at: string | null;
  result: RecipientResult | null;
  /** The test's pass mark (percent), null without one: a pass or fail is said against it. */
  pass_mark: number | null;
};

export type StudentArea = { classes: StudentClass[]; tests: StudentTest[] };

/**
 * A signed-in person's own area: the classes they joined and every test sent to them
 * (linked to their account when they joined a class, or simply sent to their address).
 */
export async function studentArea(db: Db, user: { id: string; email: string }): Promise<StudentArea> {
  const email = user.email.trim().toLowerCase();
  const [classRows, testRows] = await Promise.all([
    db
      .select({
        id: classes.id,
        name: classes.name,
        certification: certifications.name,
        sender: senderColumns,
        joinedAt: classInvitations.joinedAt,
      })
      .from(classInvitations)
      .innerJoin(classes, eq(classes.id, classInvitations.classId))
      .innerJoin(certifications, eq(certifications.id, classes.certificationId))
      .innerJoin(workspaces, eq(workspaces.id, classes.workspaceId))
      .innerJoin(users, joinOwner)
      .where(and(eq(classInvitations.studentUserId, user.id), eq(classInvitations.status, "joined")))
      .orderBy(desc(classInvitations.joinedAt), desc(classInvitations.id)),
    db
      .select({ recipient: recipients, code: tests.code, name: tests.name, certification: tests.certificationName, passMark: tests.passMark, sender: senderColumns })
      .from(recipients)
      .innerJoin(tests, eq(tests.id, recipients.testId))
      .innerJoin(workspaces, eq(workspaces.id, tests.workspaceId))
      .innerJoin(users, joinOwner)
      .where(or(eq(recipients.studentUserId, user.id), eq(recipients.email, email)))
      .orderBy(desc(recipients.sentAt), desc(recipients.id)),
  ]);
  return {
    classes: classRows.map((row) => ({
      id: row.id,
      name: row.name,
      certification: row.certification,
      trainer: senderName(row.sender),
      joined_at: row.joinedAt?.toISOString() ?? null,
    })),
    tests: testRows.map(({ recipient, code, name, certification, passMark, sender }) => ({
      recipient_id: recipient.id,
      code,
      name: testName({ name, certificationName: certification }),
      certification,
      trainer: senderName(sender),
      status: recipient.status,
      link: recipientLink(recipient),
      path: `/t/${recipientToken(recipient)}`,
      sent_at: recipient.sentAt.toISOString(),
      started_at: recipient.startedAt?.toISOString() ?? null,
      completed_at: recipient.completedAt?.toISOString() ?? null,
      result: recipient.status === "completed" ? recipient.result : null,
      pass_mark: passMark,
    })),
  };
}
