import { otherMethods } from "@/lib/platform/http/unrouted";
import { ctfContracts as ctfs } from "@/lib/ctf/competitions/contracts";
import { archiveCtf } from "@/lib/ctf/play/archive";
import { handle } from "@/lib/registry/handle";

export const POST = handle(ctfs.archive, ({ db, workspaceId, params }) => archiveCtf(db, workspaceId, params.ctf_id));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
