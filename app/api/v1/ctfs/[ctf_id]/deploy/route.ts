import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { deployCtf } from "@/lib/ctf/competitions";
import { ctfContracts as ctfs } from "@/lib/ctf/contracts";

export const POST = handle(ctfs.deploy, ({ db, workspaceId, params }) => deployCtf(db, workspaceId, params.ctf_id));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
