import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { readPage } from "@/lib/kernel/paged";
import { challenges, deployments } from "@/db/schema";
import type { Page, Paging } from "@/lib/kernel/paging";
import { findCtf } from "@/lib/ctf/competitions/competitions";
import { toDeploymentView } from "./views";
import type { DeploymentView } from "./schemas";

export type CtfDeploymentView = DeploymentView & { challenge_title: string };

/** The standalone deployments of one competition's challenges, newest first (the dashboard's list). */
export async function listCtfDeployments(db: Db, workspaceId: string, ctfId: string, paging: Paging): Promise<Page<CtfDeploymentView>> {
  await findCtf(db, workspaceId, ctfId);
  const where = and(eq(deployments.workspaceId, workspaceId), eq(challenges.ctfId, ctfId));
  const ofChallenge = eq(challenges.id, deployments.challengeId);
  return readPage(
    paging,
    db.select({ deployment: deployments, title: challenges.title }).from(deployments).innerJoin(challenges, ofChallenge).where(where).orderBy(desc(deployments.createdAt), desc(deployments.id)),
    db.select({ total: sql<number>`count(*)::int` }).from(deployments).innerJoin(challenges, ofChallenge).where(where),
    (row) => ({ ...toDeploymentView(row.deployment), challenge_title: row.title }),
  );
}
