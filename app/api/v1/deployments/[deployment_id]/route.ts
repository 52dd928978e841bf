import { handle } from "@/lib/api/handle";
import { ctfContracts as ctfs } from "@/lib/ctf/contracts";
import { getDeployment } from "@/lib/ctf/deployments";

export const GET = handle(ctfs.deployment, ({ db, workspaceId, params }) => getDeployment(db, workspaceId, params.deployment_id));
