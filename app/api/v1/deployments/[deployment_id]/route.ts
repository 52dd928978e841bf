import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { ctfContracts as ctfs } from "@/lib/ctf/contracts";
import { getDeployment } from "@/lib/ctf/deployments";

export const GET = handle(ctfs.deployment, ({ db, workspaceId, params }) => getDeployment(db, workspaceId, params.deployment_id));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
