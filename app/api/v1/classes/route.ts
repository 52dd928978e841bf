import { otherMethods } from "@/lib/platform/http/unrouted";
import { createClass, listClasses } from "@/lib/certification/classes/classes";
import { classContracts as classes } from "@/lib/certification/classes/contracts";
import { handle } from "@/lib/registry/handle";

export const GET = handle(classes.list, ({ db, workspaceId, query }) => listClasses(db, workspaceId, query));
export const POST = handle(classes.create, ({ db, workspaceId, body }) => createClass(db, workspaceId, body));
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
