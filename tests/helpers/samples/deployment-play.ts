import type { Db } from "@/db";
import { completeDeploymentDeploy, createDeployment } from "@/lib/ctf/deployments/deployments";
import { deploymentPlayerCookieName, joinDeployment } from "@/lib/ctf/deployments/play";
import type { TemplateKey } from "@/lib/ctf/templates/generate";
import type { Trainer } from "../fixtures";
import { draftChallenge, storedFile } from "./files";
import { generatedChallenge } from "./generated";
import { publishedChallenge, runningCtf } from "./play";
import type { Samples } from "./types";

/** A live standalone deployment of `trainer`'s challenge (flag `CTF{warm}`, two hints), for 30 minutes unless given. */
export async function liveDeploymentOf(db: Db, trainer: Trainer, overrides: Record<string, unknown> = {}, minutes = 30) {
  const ctfId = await runningCtf(db, trainer);
  const challengeId = await publishedChallenge(db, trainer, ctfId, overrides);
  return { deploymentId: await deploy(db, trainer, challengeId, minutes), challengeId };
}

/** A live deployment of challenge `challengeId` of `trainer`. */
async function deploy(db: Db, trainer: Trainer, challengeId: string, minutes = 30) {
  const deployment = await createDeployment(db, trainer.workspaceId, { challenge_id: challengeId, duration_minutes: minutes });
  await completeDeploymentDeploy(db, deployment.id);
  return deployment.id;
}

/** A live deployment of a challenge of `trainer` carrying one file (`challenge.bin`, the sample bytes). */
export async function liveDeploymentWithFile(db: Db, trainer: Trainer) {
  const params = await draftChallenge(db, trainer, await runningCtf(db, trainer));
  const fileId = await storedFile(db, trainer, params);
  return { deploymentId: await deploy(db, trainer, params.challenge_id), challengeId: params.challenge_id, fileId };
}

/** A live deployment of a generated challenge of `template`. */
export async function liveGeneratedDeployment(db: Db, trainer: Trainer, template: TemplateKey) {
  const challengeId = await generatedChallenge(db, trainer, await runningCtf(db, trainer), template);
  return { deploymentId: await deploy(db, trainer, challengeId), challengeId };
}

/** A player of the deployment under `name`: the `Cookie` header that signs them in. */
export async function deploymentPlayerOf(db: Db, deploymentId: string, name = "Visitor", client: string | null = null) {
  const { player, token } = await joinDeployment(db, deploymentId, { name }, client);
  return { playerId: player.player_id, cookie: `${deploymentPlayerCookieName(deploymentId)}=${token}` };
}

/** The player cookie made for each deployment's sample params. */
const cookies = new Map<string, string>();

/** The deployment's params, its player's cookie kept for them. */
async function played(db: Db, deploymentId: string) {
  cookies.set(deploymentId, (await deploymentPlayerOf(db, deploymentId)).cookie);
  return { deployment_id: deploymentId };
}

const playedDeployment = async (db: Db, trainer: Trainer) => played(db, (await liveDeploymentOf(db, trainer)).deploymentId);
const playedGenerated = async (db: Db, trainer: Trainer, template: TemplateKey) => played(db, (await liveGeneratedDeployment(db, trainer, template)).deploymentId);

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
  "deployment-play.files.download": {
    params: async ({ db }, trainer) => {
      const { deploymentId, fileId } = await liveDeploymentWithFile(db, trainer);
      return { ...(await played(db, deploymentId)), file_id: fileId };
    },
    cookie: (params) => cookies.get(params.deployment_id),
  },
  "deployment-play.artifact": { params: ({ db }, trainer) => playedGenerated(db, trainer, "layers"), cookie: (params) => cookies.get(params.deployment_id) },
  "deployment-play.artifact.file": { params: ({ db }, trainer) => playedGenerated(db, trainer, "caesars-diary"), cookie: (params) => cookies.get(params.deployment_id) },
  "deployment-play.target": {
    params: async ({ db }, trainer) => ({ ...(await playedGenerated(db, trainer, "search-party")), page: "search" }),
    cookie: (params) => cookies.get(params.deployment_id),
  },
  "deployments.solves": { params: async ({ db }, trainer) => ({ deployment_id: (await liveDeploymentOf(db, trainer)).deploymentId }) },
};
