import { otherMethods } from "@/lib/platform/http/unrouted";
import { listCtfDeployments } from "@/lib/ctf/deployments/competition-deployments";
import { createDeployment, listDeployments } from "@/lib/ctf/deployments/deployments";
import { handle } from "@/lib/registry/handle";
import { deploymentContracts } from "@/lib/ctf/deployments/contracts";

// With ?ctf_id= (additive): that competition's deployments, each with its challenge's title.
export const GET = handle(deploymentContracts.deployments, ({ db, workspaceId, query: { ctf_id, ...paging } }) =>
  ctf_id ? listCtfDeployments(db, workspaceId, ctf_id, paging) : listDeployments(db, workspaceId, paging),
);
export const POST = handle(deploymentContracts.createDeployment, ({ db, workspaceId, body }) => createDeployment(db, workspaceId, body));
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
