import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { inviteStudents } from "@/lib/classes/classes";
import { classContracts as classes } from "@/lib/classes/contracts";

export const POST = handle(classes.invite, ({ db, workspaceId, params, body }) => inviteStudents(db, workspaceId, params.id, body));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
