import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { challenges, deployments } from "@/db/schema";
import { offsetOf, page, type Page, type Paging } from "@/lib/api/paging";
import { findCtf } from "./competitions";
import type { DeploymentView } from "./schemas";
import { toDeploymentView } from "./views";

export type CtfDeploymentView = DeploymentView & { challenge_title: string };

/** The standalone deployments of one competition's challenges, newest first (the dashboard's list). */
export async function listCtfDeployments(db: Db, workspaceId: string, ctfId: string, paging: Paging): Promise<Page<CtfDeploymentView>> {
  await findCtf(db, workspaceId, ctfId);
  const where = and(eq(deployments.workspaceId, workspaceId), eq(challenges.ctfId, ctfId));
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({ deployment: deployments, title: challenges.title })
      .from(deployments)
      .innerJoin(challenges, eq(challenges.id, deployments.challengeId))
      .where(where)
      .orderBy(desc(deployments.createdAt), desc(deployments.id))
      .limit(paging.per_page)
      .offset(offsetOf(paging)),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(deployments)
      .innerJoin(challenges, eq(challenges.id, deployments.challengeId))
      .where(where),
  ]);
  return page(
    rows.map((row) => ({ ...toDeploymentView(row.deployment), challenge_title: row.title })),
    paging,
    total,
  );
}
