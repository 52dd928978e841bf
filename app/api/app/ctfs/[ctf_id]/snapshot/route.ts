import { otherMethods } from "@/lib/platform/http/unrouted";
import { getSnapshot } from "@/lib/ctf/competitions/competitions";
import { ctfContracts as ctfs } from "@/lib/ctf/competitions/contracts";
import { handle } from "@/lib/registry/handle";

export const GET = handle(ctfs.snapshot, ({ db, workspaceId, params }) => getSnapshot(db, workspaceId, params.ctf_id));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
