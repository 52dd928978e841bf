import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { createClass, listClasses } from "@/lib/classes/classes";
import { classContracts as classes } from "@/lib/classes/contracts";

export const GET = handle(classes.list, ({ db, workspaceId, query }) => listClasses(db, workspaceId, query));
export const POST = handle(classes.create, ({ db, workspaceId, body }) => createClass(db, workspaceId, body));
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
