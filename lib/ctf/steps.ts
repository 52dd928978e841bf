import { registerStep } from "@/lib/outbox/steps";
import { CHALLENGE_GENERATE_STEP, CHALLENGE_PUBLISH_STEP, CHALLENGE_UNPUBLISH_STEP, completeGeneration, completePublish, completeUnpublish } from "./challenges";
import { completeCtfDeploy, CTF_DEPLOY_STEP } from "./competitions";
import { completeDeploymentDeploy, DEPLOYMENT_DEPLOY_STEP, DEPLOYMENT_STOP_STEP, stopLiveDeployment } from "./deployments";

// The competition lifecycle's asynchronous steps, run by whichever executor is configured.
registerStep(CTF_DEPLOY_STEP, (db, step) => completeCtfDeploy(db, step.payload.ctfId as string));
registerStep(CHALLENGE_GENERATE_STEP, (db, step) => completeGeneration(db, step.payload.challengeId as string));
registerStep(CHALLENGE_PUBLISH_STEP, (db, step) => completePublish(db, step.payload.challengeId as string));
registerStep(CHALLENGE_UNPUBLISH_STEP, (db, step) => completeUnpublish(db, step.payload.challengeId as string));
registerStep(DEPLOYMENT_DEPLOY_STEP, (db, step) => completeDeploymentDeploy(db, step.payload.deploymentId as string));
registerStep(DEPLOYMENT_STOP_STEP, async (db, step) => {
  await stopLiveDeployment(db, step.payload.deploymentId as string, "window_elapsed");
});
