import { otherMethods } from "@/lib/platform/http/unrouted";
import { getClass } from "@/lib/certification/classes/classes";
import { classContracts as classes } from "@/lib/certification/classes/contracts";
import { handle } from "@/lib/registry/handle";

export const GET = handle(classes.get, ({ db, workspaceId, params }) => getClass(db, workspaceId, params.id));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
