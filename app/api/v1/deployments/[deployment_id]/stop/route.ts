import { otherMethods } from "@/lib/platform/http/unrouted";
import { ctfContracts as ctfs } from "@/lib/ctf/competitions/contracts";
import { stopDeployment } from "@/lib/ctf/deployments/deployments";
import { handle } from "@/lib/registry/handle";

export const POST = handle(ctfs.stopDeployment, ({ db, workspaceId, params }) => stopDeployment(db, workspaceId, params.deployment_id));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
