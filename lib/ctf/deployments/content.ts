import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { challengeArtifacts, type Challenge, type ChallengeArtifact } from "@/db/schema";
import type { PlayerArtifactView } from "@/lib/ctf/play/artifacts/schemas";
import { answerTarget, artifactFile, artifactView, pageArtifact, type PageArtifact, type TargetRequestIn } from "@/lib/ctf/play/artifacts/artifacts";
import { liveChallenge, type DeploymentPlayer } from "./play";
import { challengeFileDownload, playerFilesOf, type FileDownload } from "@/lib/ctf/challenges/files/files";
import type { PlayerFileView } from "@/lib/ctf/challenges/files/schemas";
import type { TargetReply } from "@/lib/ctf/templates/kit/types";

/**
 * What a standalone deployment's players work on besides the flag form: its challenge's
 * files, and for a generated challenge its artifact (the file, the web target). The
 * competition's domain functions, under the deployment's rule: its player (the caller kind),
 * while it is live (409 naming why otherwise, as for its flags). A deployment serves its one
 * challenge whatever that challenge's state in its competition, as its page does.
 */

/** Where a deployment's player reaches its artifact routes: `/api/d/{id}/artifact/file`, `/api/d/{id}/target/{page}`. */
export const deploymentArtifactBase = (deploymentId: string) => `/api/d/${deploymentId}`;

async function artifactOf(db: Db, challengeId: string): Promise<ChallengeArtifact | null> {
  const [artifact] = await db.select().from(challengeArtifacts).where(eq(challengeArtifacts.challengeId, challengeId));
  return artifact ?? null;
}

/** The live deployment's challenge and its artifact (null for a challenge written by hand). */
async function liveContent(db: Db, player: DeploymentPlayer, now: Date): Promise<{ challenge: Challenge; artifact: ChallengeArtifact | null }> {
  const { challenge } = await liveChallenge(db, player.deploymentId, now, { lock: false });
  return { challenge, artifact: await artifactOf(db, challenge.id) };
}

/** A file of the deployment's challenge; another challenge's file, or an unknown one → 404. */
export async function deploymentFileDownload(db: Db, player: DeploymentPlayer, fileId: string, now = new Date()): Promise<FileDownload> {
  const { challenge } = await liveChallenge(db, player.deploymentId, now, { lock: false });
  return challengeFileDownload(db, challenge.id, fileId);
}

/** What the deployment's player works on: the file and the target (both null for a challenge written by hand). */
export async function deploymentArtifact(db: Db, player: DeploymentPlayer, now = new Date()): Promise<PlayerArtifactView> {
  const { challenge, artifact } = await liveContent(db, player, now);
  return artifactView(deploymentArtifactBase(player.deploymentId), challenge.id, artifact);
}

/** The generated file to download; none → 404. */
export async function deploymentArtifactFile(db: Db, player: DeploymentPlayer, now = new Date()): Promise<{ name: string; data: Buffer }> {
  return artifactFile((await liveContent(db, player, now)).artifact);
}

/** One page of the deployment's web target; its cookies are scoped to `/api/d/{deployment_id}/target`. */
export async function serveDeploymentTarget(db: Db, player: DeploymentPlayer, request: TargetRequestIn, now = new Date()): Promise<TargetReply> {
  const { challenge, artifact } = await liveContent(db, player, now);
  return answerTarget(challenge, artifact, request, deploymentArtifactBase(player.deploymentId));
}

/** For the deployment's page, to its player while live: the challenge's files and its artifact (null for one written by hand). */
export async function deploymentPageContent(db: Db, deploymentId: string, challengeId: string): Promise<{ files: PlayerFileView[]; artifact: PageArtifact | null }> {
  const [files, artifact] = await Promise.all([playerFilesOf(db, challengeId), artifactOf(db, challengeId)]);
  return { files, artifact: artifact ? pageArtifact(deploymentArtifactBase(deploymentId), challengeId, artifact) : null };
}
