import { otherMethods } from "@/lib/platform/http/unrouted";
import { deploymentPlayerCookie, joinDeployment } from "@/lib/ctf/deployments/play";
import { deploymentPlayContracts as play } from "@/lib/ctf/deployments/play-contracts";
import { handle } from "@/lib/registry/handle";

// A visitor of a live standalone deployment plays under a display name: the player's cookie is set.
export const POST = handle(play.join, async ({ db, params, body, clientIp }) => {
  const { player, token } = await joinDeployment(db, params.deployment_id, body, clientIp);
  return Response.json(player, { status: play.join.status, headers: { "Set-Cookie": deploymentPlayerCookie(params.deployment_id, token) } });
});
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
