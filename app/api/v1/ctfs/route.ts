import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { createCtf, listCtfs } from "@/lib/ctf/competitions";
import { ctfContracts as ctfs } from "@/lib/ctf/contracts";

export const GET = handle(ctfs.list, ({ db, workspaceId, query }) => listCtfs(db, workspaceId, query));
export const POST = handle(ctfs.create, ({ db, workspaceId, body }) => createCtf(db, workspaceId, body));
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
