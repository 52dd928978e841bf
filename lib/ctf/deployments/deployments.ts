import { and, desc, eq } from "drizzle-orm";
import type { Db } from "@/db";
import { countRows, readPage } from "@/lib/kernel/paged";
import { challenges, ctfs, deployments, type Deployment } from "@/db/schema";
import type { Page, Paging } from "@/lib/kernel/paging";
import { conflict, invalidFields, notFound } from "@/lib/kernel/errors";
import { publishEvent } from "@/lib/platform/pipeline/channels/webhook/publish";
import { isIdShaped, newId } from "@/lib/kernel/ids";
import { describeHostError, hostFor } from "@/lib/ctf/hosting";
import { toDeploymentView } from "./views";
import type { CreateDeploymentInput, DeploymentView } from "./schemas";
import { scheduleStep } from "@/lib/ctf/steps";

export async function findDeployment(db: Db, workspaceId: string, deploymentId: string): Promise<Deployment> {
  if (!isIdShaped(deploymentId, "dep")) throw notFound("Deployment");
  const [deployment] = await db.select().from(deployments).where(and(eq(deployments.id, deploymentId), eq(deployments.workspaceId, workspaceId)));
  if (!deployment) throw notFound("Deployment");
  return deployment;
}

export async function getDeployment(db: Db, workspaceId: string, deploymentId: string): Promise<DeploymentView> {
  return toDeploymentView(await findDeployment(db, workspaceId, deploymentId));
}

export async function listDeployments(db: Db, workspaceId: string, paging: Paging): Promise<Page<DeploymentView>> {
  const where = eq(deployments.workspaceId, workspaceId);
  return readPage(paging, db.select().from(deployments).where(where).orderBy(desc(deployments.createdAt), desc(deployments.id)), countRows(db, deployments, where), toDeploymentView);
}

/**
 * Deploys one challenge for a window. Asynchronous: `deploying`, then `live`
 * (deployment.deployed); when the window elapses a scheduled step stops it
 * (deployment.stopped) — the step is a database row, so it survives restarts.
 */
export async function createDeployment(db: Db, workspaceId: string, input: CreateDeploymentInput): Promise<DeploymentView> {
  const [challenge] = await db
    .select()
    .from(challenges)
    .where(and(eq(challenges.id, input.challenge_id), eq(challenges.workspaceId, workspaceId)));
  if (!challenge) throw invalidFields([{ field: "challenge_id", message: "No such challenge." }]);
  if (["generating", "generation_failed"].includes(challenge.status)) throw conflict("The challenge is not ready yet.");
  const startsAt = new Date();
  const endsAt = input.ends_at ?? new Date(startsAt.getTime() + input.duration_minutes! * 60_000);
  return db.transaction(async (tx) => {
    const [deployment] = await tx
      .insert(deployments)
      .values({ id: newId("dep"), workspaceId, challengeId: challenge.id, startsAt, endsAt })
      .returning();
    await scheduleStep(tx, workspaceId, "deployment.deploy", { deploymentId: deployment.id }, startsAt);
    return toDeploymentView(deployment);
  });
}

export async function completeDeploymentDeploy(db: Db, deploymentId: string): Promise<void> {
  const [row] = await db
    .select({ deployment: deployments, challenge: challenges, host: ctfs.host })
    .from(deployments)
    .innerJoin(challenges, eq(challenges.id, deployments.challengeId))
    .innerJoin(ctfs, eq(ctfs.id, challenges.ctfId))
    .where(eq(deployments.id, deploymentId));
  if (!row || row.deployment.status !== "deploying") return;
  try {
    const { url } = await hostFor(row.host, db).deployChallenge(row.deployment, row.challenge);
    await db.transaction(async (tx) => {
      const [live] = await tx
        .update(deployments)
        .set({ status: "live", url, liveAt: new Date(), lastError: null })
        .where(and(eq(deployments.id, deploymentId), eq(deployments.status, "deploying")))
        .returning();
      if (!live) return;
      await publishEvent(tx, live.workspaceId, "deployment.deployed", {
        deployment_id: live.id,
        challenge_id: live.challengeId,
        url,
        starts_at: live.startsAt.toISOString(),
        ends_at: live.endsAt.toISOString(),
      });
      await scheduleStep(tx, live.workspaceId, "deployment.stop", { deploymentId: live.id, reason: "window_elapsed" }, live.endsAt);
    });
  } catch (error) {
    await db
      .update(deployments)
      .set({ status: "deploy_failed", lastError: describeHostError(error) })
      .where(and(eq(deployments.id, deploymentId), eq(deployments.status, "deploying")));
  }
}

/** Stops a live deployment (its window elapsed, or on request) and publishes deployment.stopped. */
export async function stopLiveDeployment(db: Db, deploymentId: string, reason: "window_elapsed" | "stopped_by_request"): Promise<boolean> {
  const [row] = await db
    .select({ deployment: deployments, host: ctfs.host })
    .from(deployments)
    .innerJoin(challenges, eq(challenges.id, deployments.challengeId))
    .innerJoin(ctfs, eq(ctfs.id, challenges.ctfId))
    .where(eq(deployments.id, deploymentId));
  if (!row || row.deployment.status !== "live") return false;
  await hostFor(row.host, db).stopChallenge(row.deployment);
  return db.transaction(async (tx) => {
    const stoppedAt = new Date();
    const [stopped] = await tx
      .update(deployments)
      .set({ status: "stopped", stoppedAt, stopReason: reason })
      .where(and(eq(deployments.id, deploymentId), eq(deployments.status, "live")))
      .returning();
    if (!stopped) return false;
    await publishEvent(tx, stopped.workspaceId, "deployment.stopped", {
      deployment_id: stopped.id,
      challenge_id: stopped.challengeId,
      stopped_at: stoppedAt.toISOString(),
      reason,
    });
    return true;
  });
}

export async function stopDeployment(db: Db, workspaceId: string, deploymentId: string): Promise<DeploymentView> {
  const deployment = await findDeployment(db, workspaceId, deploymentId);
  if (deployment.status !== "live") throw conflict(`Cannot stop a deployment that is ${deployment.status}.`);
  await stopLiveDeployment(db, deploymentId, "stopped_by_request");
  return getDeployment(db, workspaceId, deploymentId);
}
