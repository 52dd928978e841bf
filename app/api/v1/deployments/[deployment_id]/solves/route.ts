import { otherMethods } from "@/lib/platform/http/unrouted";
import { listDeploymentSolves } from "@/lib/ctf/deployments/play";
import { deploymentPlayContracts as play } from "@/lib/ctf/deployments/play-contracts";
import { handle } from "@/lib/registry/handle";

// GET /api/v1/deployments/{deployment_id}/solves – who solved a standalone deployment
export const GET = handle(play.solves, ({ db, workspaceId, params, query }) => listDeploymentSolves(db, workspaceId, params.deployment_id, query));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
