import { otherMethods } from "@/lib/platform/http/unrouted";
import { ctfContracts as ctfs } from "@/lib/ctf/competitions/contracts";
import { getDeployment } from "@/lib/ctf/deployments/deployments";
import { handle } from "@/lib/registry/handle";

export const GET = handle(ctfs.deployment, ({ db, workspaceId, params }) => getDeployment(db, workspaceId, params.deployment_id));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
