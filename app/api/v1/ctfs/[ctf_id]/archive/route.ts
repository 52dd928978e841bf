import { handle } from "@/lib/platform/http/handle";
import { otherMethods } from "@/lib/platform/http/unrouted";
import { ctfContracts as ctfs } from "@/lib/ctf/competitions/contracts";
import { archiveCtf } from "@/lib/ctf/play/archive";

export const POST = handle(ctfs.archive, ({ db, workspaceId, params }) => archiveCtf(db, workspaceId, params.ctf_id));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
