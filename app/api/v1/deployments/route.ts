import { otherMethods } from "@/lib/platform/http/unrouted";
import { ctfContracts as ctfs } from "@/lib/ctf/competitions/contracts";
import { listCtfDeployments } from "@/lib/ctf/deployments/competition-deployments";
import { createDeployment, listDeployments } from "@/lib/ctf/deployments/deployments";
import { handle } from "@/lib/registry/handle";

// With ?ctf_id= (additive): that competition's deployments, each with its challenge's title.
export const GET = handle(ctfs.deployments, ({ db, workspaceId, query: { ctf_id, ...paging } }) =>
  ctf_id ? listCtfDeployments(db, workspaceId, ctf_id, paging) : listDeployments(db, workspaceId, paging),
);
export const POST = handle(ctfs.createDeployment, ({ db, workspaceId, body }) => createDeployment(db, workspaceId, body));
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
