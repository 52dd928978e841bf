import type { StepHandlers } from "@/lib/platform/pipeline/channels/steps/steps";
import type { ctfSteps } from "@/lib/ctf/steps";
import { completeGeneration, completePublish, completeUnpublish } from "@/lib/ctf/challenges/challenges";
import { completeCtfDeploy } from "@/lib/ctf/competitions/competitions";
import { completeDeploymentDeploy, stopLiveDeployment } from "@/lib/ctf/deployments/deployments";
import { completeFileRemoval, completeFileUpload } from "@/lib/ctf/challenges/host-files";

/** The competition lifecycle's asynchronous steps, run by whichever executor is configured (lib/registry/steps.ts). */
export const ctfStepHandlers = {
  "ctf.deploy": (db, { ctfId }) => completeCtfDeploy(db, ctfId),
  "challenge.generate": (db, { challengeId, template }) => completeGeneration(db, challengeId, template),
  "challenge.publish": (db, { challengeId }) => completePublish(db, challengeId),
  "challenge.unpublish": (db, { challengeId }) => completeUnpublish(db, challengeId),
  "challenge.file.upload": (db, { fileId }) => completeFileUpload(db, fileId),
  "challenge.file.delete": (db, { platformFileId }) => completeFileRemoval(db, platformFileId),
  "deployment.deploy": (db, { deploymentId }) => completeDeploymentDeploy(db, deploymentId),
  "deployment.stop": async (db, { deploymentId, reason }) => {
    await stopLiveDeployment(db, deploymentId, reason);
  },
} satisfies StepHandlers<typeof ctfSteps>;
