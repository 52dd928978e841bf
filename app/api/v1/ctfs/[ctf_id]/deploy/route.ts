import { handle } from "@/lib/api/handle";
import { deployCtf } from "@/lib/ctf/competitions";
import { ctfContracts as ctfs } from "@/lib/ctf/contracts";

export const POST = handle(ctfs.deploy, ({ db, workspaceId, params }) => deployCtf(db, workspaceId, params.ctf_id));
