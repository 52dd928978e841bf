import { otherMethods } from "@/lib/platform/http/unrouted";
import { stopCtf } from "@/lib/ctf/competitions/competitions";
import { ctfContracts as ctfs } from "@/lib/ctf/competitions/contracts";
import { handle } from "@/lib/registry/handle";

export const POST = handle(ctfs.stop, ({ db, workspaceId, params }) => stopCtf(db, workspaceId, params.ctf_id));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
