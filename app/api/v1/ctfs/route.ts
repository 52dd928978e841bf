import { otherMethods } from "@/lib/platform/http/unrouted";
import { createCtf, listCtfs } from "@/lib/ctf/competitions/competitions";
import { ctfContracts as ctfs } from "@/lib/ctf/competitions/contracts";
import { handle } from "@/lib/registry/handle";

export const GET = handle(ctfs.list, ({ db, workspaceId, query }) => listCtfs(db, workspaceId, query));
export const POST = handle(ctfs.create, ({ db, workspaceId, body }) => createCtf(db, workspaceId, body));
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
