import { otherMethods } from "@/lib/platform/http/unrouted";
import { getDeployment } from "@/lib/ctf/deployments/deployments";
import { handle } from "@/lib/registry/handle";
import { deploymentContracts } from "@/lib/ctf/deployments/contracts";

export const GET = handle(deploymentContracts.deployment, ({ db, workspaceId, params }) => getDeployment(db, workspaceId, params.deployment_id));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
