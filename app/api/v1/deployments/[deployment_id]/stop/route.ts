import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { ctfContracts as ctfs } from "@/lib/ctf/contracts";
import { stopDeployment } from "@/lib/ctf/deployments";

export const POST = handle(ctfs.stopDeployment, ({ db, workspaceId, params }) => stopDeployment(db, workspaceId, params.deployment_id));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
