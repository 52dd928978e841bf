import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { getClass } from "@/lib/classes/classes";
import { classContracts as classes } from "@/lib/classes/contracts";

export const GET = handle(classes.get, ({ db, workspaceId, params }) => getClass(db, workspaceId, params.id));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
