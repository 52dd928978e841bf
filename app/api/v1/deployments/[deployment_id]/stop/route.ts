import { handle } from "@/lib/api/handle";
import { ctfContracts as ctfs } from "@/lib/ctf/contracts";
import { stopDeployment } from "@/lib/ctf/deployments";

export const POST = handle(ctfs.stopDeployment, ({ db, workspaceId, params }) => stopDeployment(db, workspaceId, params.deployment_id));
