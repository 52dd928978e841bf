import { handle } from "@/lib/api/handle";
import { stopCtf } from "@/lib/ctf/competitions";
import { ctfContracts as ctfs } from "@/lib/ctf/contracts";

export const POST = handle(ctfs.stop, ({ db, workspaceId, params }) => stopCtf(db, workspaceId, params.ctf_id));
