import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { ctfContracts as ctfs } from "@/lib/ctf/contracts";
import { inviteMember, listMembers } from "@/lib/ctf/members";

export const GET = handle(ctfs.members, ({ db, workspaceId, params, query }) => listMembers(db, workspaceId, params.ctf_id, query));
export const POST = handle(ctfs.inviteMember, ({ db, workspaceId, params, body }) => inviteMember(db, workspaceId, params.ctf_id, body));
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
