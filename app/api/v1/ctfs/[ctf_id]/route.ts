import { otherMethods } from "@/lib/platform/http/unrouted";
import { deleteCtf, getCtf, updateCtf } from "@/lib/ctf/competitions/competitions";
import { ctfContracts as ctfs } from "@/lib/ctf/competitions/contracts";
import { handle } from "@/lib/registry/handle";

export const GET = handle(ctfs.get, ({ db, workspaceId, params }) => getCtf(db, workspaceId, params.ctf_id));
export const PATCH = handle(ctfs.update, ({ db, workspaceId, params, body }) => updateCtf(db, workspaceId, params.ctf_id, body));
export const DELETE = handle(ctfs.remove, ({ db, workspaceId, params }) => deleteCtf(db, workspaceId, params.ctf_id));
export const { POST, PUT, OPTIONS } = otherMethods({ GET, PATCH, DELETE });
