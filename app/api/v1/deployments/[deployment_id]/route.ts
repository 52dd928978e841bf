import { handle } from "@/lib/platform/http/handle";
import { otherMethods } from "@/lib/platform/http/unrouted";
import { ctfContracts as ctfs } from "@/lib/ctf/competitions/contracts";
import { getDeployment } from "@/lib/ctf/deployments/deployments";

export const GET = handle(ctfs.deployment, ({ db, workspaceId, params }) => getDeployment(db, workspaceId, params.deployment_id));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
