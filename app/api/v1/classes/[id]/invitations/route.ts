import { handle } from "@/lib/api/handle";
import { inviteStudents } from "@/lib/classes/classes";
import { classContracts as classes } from "@/lib/classes/contracts";

export const POST = handle(classes.invite, ({ db, workspaceId, params, body }) => inviteStudents(db, workspaceId, params.id, body));
