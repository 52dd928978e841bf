import { handle } from "@/lib/platform/http/handle";
import { otherMethods } from "@/lib/platform/http/unrouted";
import { classContracts as classes } from "@/lib/certification/classes/contracts";
import { inviteStudents } from "@/lib/certification/classes/invitations";

export const POST = handle(classes.invite, ({ db, workspaceId, params, body }) => inviteStudents(db, workspaceId, params.id, body));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
