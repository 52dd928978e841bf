import { otherMethods } from "@/lib/platform/http/unrouted";
import { ctfContracts as ctfs } from "@/lib/ctf/competitions/contracts";
import { inviteMember, listMembers } from "@/lib/ctf/competitions/members";
import { handle } from "@/lib/registry/handle";

export const GET = handle(ctfs.members, ({ db, workspaceId, params, query }) => listMembers(db, workspaceId, params.ctf_id, query));
export const POST = handle(ctfs.inviteMember, ({ db, workspaceId, params, body }) => inviteMember(db, workspaceId, params.ctf_id, body));
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
