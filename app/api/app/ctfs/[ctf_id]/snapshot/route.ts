import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { getSnapshot } from "@/lib/ctf/competitions";
import { ctfContracts as ctfs } from "@/lib/ctf/contracts";

export const GET = handle(ctfs.snapshot, ({ db, workspaceId, params }) => getSnapshot(db, workspaceId, params.ctf_id));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
