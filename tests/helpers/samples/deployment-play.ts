import type { Db } from "@/db";
import { completeDeploymentDeploy, createDeployment } from "@/lib/ctf/deployments";
import { deploymentPlayerCookieName, joinDeployment } from "@/lib/ctf/deployment-play";
import type { Trainer } from "../fixtures";
import { publishedChallenge, runningCtf } from "./play";
import type { Samples } from "./types";

/** A live standalone deployment of `trainer`'s challenge (flag `CTF{warm}`, two hints), for 30 minutes unless given. */
export async function liveDeploymentOf(db: Db, trainer: Trainer, overrides: Record<string, unknown> = {}, minutes = 30) {
  const ctfId = await runningCtf(db, trainer);
  const challengeId = await publishedChallenge(db, trainer, ctfId, overrides);
  const deployment = await createDeployment(db, trainer.workspaceId, { challenge_id: challengeId, duration_minutes: minutes });
  await completeDeploymentDeploy(db, deployment.id);
  return { deploymentId: deployment.id, challengeId };
}

/** A player of the deployment under `name`: the `Cookie` header that signs them in. */
export async function deploymentPlayerOf(db: Db, deploymentId: string, name = "Visitor", client: string | null = null) {
  const { player, token } = await joinDeployment(db, deploymentId, { name }, client);
  return { playerId: player.player_id, cookie: `${deploymentPlayerCookieName(deploymentId)}=${token}` };
}

/** The player cookie made for each deployment's sample params. */
const cookies = new Map<string, string>();

async function playedDeployment(db: Db, trainer: Trainer) {
  const { deploymentId } = await liveDeploymentOf(db, trainer);
  cookies.set(deploymentId, (await deploymentPlayerOf(db, deploymentId)).cookie);
  return { deployment_id: deploymentId };
}

export const deploymentPlaySamples: Samples = {
  "deployment-play.join": {
    params: async ({ db }, trainer) => ({ deployment_id: (await liveDeploymentOf(db, trainer)).deploymentId }),
    body: () => ({ name: "Visitor" }),
  },
  "deployment-play.attempts.create": {
    params: ({ db }, trainer) => playedDeployment(db, trainer),
    body: () => ({ flag: "CTF{wrong}" }),
    cookie: (params) => cookies.get(params.deployment_id),
  },
  "deployment-play.hints.unlock": {
    params: async ({ db }, trainer) => ({ ...(await playedDeployment(db, trainer)), n: "1" }),
    cookie: (params) => cookies.get(params.deployment_id),
  },
  "deployments.solves": { params: async ({ db }, trainer) => ({ deployment_id: (await liveDeploymentOf(db, trainer)).deploymentId }) },
};
