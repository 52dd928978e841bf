import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { challenges, deployments } from "@/db/schema";
import { isIdShaped } from "@/lib/kernel/ids";
import { liveState } from "./play";
import { type PublicChallenge, publicChallengeColumns } from "@/lib/ctf/play/public";
/**
 * What a standalone deployment's page (`/d/{deployment_id}`) shows in each state: `live`
 * (inside its window: the challenge, its description and hint costs — hint texts go to its
 * players on unlock), `deploying`, `failed`, or `over` (its window elapsed or it was
 * stopped: "no longer live", with the title and when). Null only for an unknown id.
 */
export type DeploymentPageView =
  | { state: "live"; id: string; starts_at: string; ends_at: string; challenge: Omit<PublicChallenge, "hints"> & { hints: { cost: number }[] } }
  | { state: "deploying" | "failed"; id: string; title: string }
  | { state: "over"; id: string; title: string; ended_at: string };

export async function deploymentPage(db: Db, deploymentId: string, now = new Date()): Promise<DeploymentPageView | null> {
  if (!isIdShaped(deploymentId, "dep")) return null;
  const [row] = await db
    .select({ deployment: deployments, challenge: publicChallengeColumns })
    .from(deployments)
    .innerJoin(challenges, eq(challenges.id, deployments.challengeId))
    .where(eq(deployments.id, deploymentId));
  if (!row) return null;
  const { deployment, challenge } = row;
  const state = liveState(deployment, now);
  if (state === "live") {
    return {
      state,
      id: deployment.id,
      starts_at: deployment.startsAt.toISOString(),
      ends_at: deployment.endsAt.toISOString(),
      challenge: { ...challenge, hints: challenge.hints.map((hint) => ({ cost: hint.cost })) },
    };
  }
  if (state === "deploying" || state === "failed") return { state, id: deployment.id, title: challenge.title };
  const endedAt = state === "stopped" && deployment.stoppedAt && deployment.stoppedAt < deployment.endsAt ? deployment.stoppedAt : deployment.endsAt;
  return { state: "over", id: deployment.id, title: challenge.title, ended_at: endedAt.toISOString() };
}
