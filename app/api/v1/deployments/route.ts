import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { ctfContracts as ctfs } from "@/lib/ctf/contracts";
import { listCtfDeployments } from "@/lib/ctf/ctf-deployments";
import { createDeployment, listDeployments } from "@/lib/ctf/deployments";

// With ?ctf_id= (additive): that competition's deployments, each with its challenge's title.
export const GET = handle(ctfs.deployments, ({ db, workspaceId, query: { ctf_id, ...paging } }) =>
  ctf_id ? listCtfDeployments(db, workspaceId, ctf_id, paging) : listDeployments(db, workspaceId, paging),
);
export const POST = handle(ctfs.createDeployment, ({ db, workspaceId, body }) => createDeployment(db, workspaceId, body));
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
