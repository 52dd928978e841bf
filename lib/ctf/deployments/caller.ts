import type { PlayerCaller } from "@/lib/platform/http/callers";
import { deploymentPlayerCookieName, findDeploymentPlayer, type DeploymentPlayer } from "./play";

/** A standalone deployment's player, signed in by the cookie named after the deployment in the path (lib/registry/handle.ts). */
export const deploymentPlayerCaller: PlayerCaller<DeploymentPlayer> = {
  param: "deployment_id",
  cookieName: deploymentPlayerCookieName,
  find: findDeploymentPlayer,
  refusal: "Not a player of this challenge: enter a display name on its page first.",
};
