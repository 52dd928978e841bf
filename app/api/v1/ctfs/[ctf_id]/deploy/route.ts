import { otherMethods } from "@/lib/platform/http/unrouted";
import { deployCtf } from "@/lib/ctf/competitions/competitions";
import { ctfContracts as ctfs } from "@/lib/ctf/competitions/contracts";
import { handle } from "@/lib/registry/handle";

export const POST = handle(ctfs.deploy, ({ db, workspaceId, params }) => deployCtf(db, workspaceId, params.ctf_id));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
