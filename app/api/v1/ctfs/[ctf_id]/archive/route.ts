import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { archiveCtf } from "@/lib/ctf/competitions";
import { ctfContracts as ctfs } from "@/lib/ctf/contracts";

export const POST = handle(ctfs.archive, ({ db, workspaceId, params }) => archiveCtf(db, workspaceId, params.ctf_id));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
