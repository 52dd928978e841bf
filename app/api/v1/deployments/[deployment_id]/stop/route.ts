import { otherMethods } from "@/lib/platform/http/unrouted";
import { stopDeployment } from "@/lib/ctf/deployments/deployments";
import { handle } from "@/lib/registry/handle";
import { deploymentContracts } from "@/lib/ctf/deployments/contracts";

export const POST = handle(deploymentContracts.stopDeployment, ({ db, workspaceId, params }) => stopDeployment(db, workspaceId, params.deployment_id));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
