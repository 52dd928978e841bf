import { otherMethods } from "@/lib/platform/http/unrouted";
import { submitDeploymentFlag } from "@/lib/ctf/deployments/play";
import { deploymentPlayContracts as play } from "@/lib/ctf/deployments/play-contracts";
import { handle } from "@/lib/registry/handle";

// A deployment's player submits a flag (their cookie): correct, incorrect or already_solved.
export const POST = handle(play.attempt, ({ db, player, body, clientIp }) => submitDeploymentFlag(db, player, body, clientIp));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
