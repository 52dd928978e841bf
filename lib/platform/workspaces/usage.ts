import { countDistinct, eq, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { classInvitations, classes } from "@/db/schema";

export type WorkspaceUsage = {
  /** Classes of the workspace. */
  classes: number;
  /** Distinct e-mail addresses invited to or joined in any of the workspace's classes. */
  students: number;
};

/**
 * What the workspace uses of its plan's class and student limits. Students are counted the
 * way the limit is checked: each address once across all classes, invited or joined.
 */
export async function workspaceUsage(db: Db, workspaceId: string): Promise<WorkspaceUsage> {
  const [[{ classCount }], [{ students }]] = await Promise.all([
    db
      .select({ classCount: sql<number>`count(*)::int` })
      .from(classes)
      .where(eq(classes.workspaceId, workspaceId)),
    db
      .select({ students: countDistinct(classInvitations.email) })
      .from(classInvitations)
      .where(eq(classInvitations.workspaceId, workspaceId)),
  ]);
  return { classes: classCount, students: Number(students) };
}
