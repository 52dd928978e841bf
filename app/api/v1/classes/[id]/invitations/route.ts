import { otherMethods } from "@/lib/platform/http/unrouted";
import { classContracts as classes } from "@/lib/certification/classes/contracts";
import { inviteStudents } from "@/lib/certification/classes/invitations";
import { handle } from "@/lib/registry/handle";

export const POST = handle(classes.invite, ({ db, workspaceId, params, body }) => inviteStudents(db, workspaceId, params.id, body));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
