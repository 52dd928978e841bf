import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { stopCtf } from "@/lib/ctf/competitions";
import { ctfContracts as ctfs } from "@/lib/ctf/contracts";

export const POST = handle(ctfs.stop, ({ db, workspaceId, params }) => stopCtf(db, workspaceId, params.ctf_id));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
