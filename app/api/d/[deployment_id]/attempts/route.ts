import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { submitDeploymentFlag } from "@/lib/ctf/deployment-play";
import { deploymentPlayContracts as play } from "@/lib/ctf/deployment-play-contracts";

// A deployment's player submits a flag (their cookie): correct, incorrect or already_solved.
export const POST = handle(play.attempt, ({ db, player, body, clientIp }) => submitDeploymentFlag(db, player, body, clientIp));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
