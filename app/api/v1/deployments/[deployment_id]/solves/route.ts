import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { listDeploymentSolves } from "@/lib/ctf/deployment-play";
import { deploymentPlayContracts as play } from "@/lib/ctf/deployment-play-contracts";

// GET /api/v1/deployments/{deployment_id}/solves – who solved a standalone deployment
export const GET = handle(play.solves, ({ db, workspaceId, params, query }) => listDeploymentSolves(db, workspaceId, params.deployment_id, query));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
