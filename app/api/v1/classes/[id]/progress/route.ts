import { otherMethods } from "@/lib/platform/http/unrouted";
import { classContracts as classes } from "@/lib/certification/classes/contracts";
import { classProgress } from "@/lib/certification/classes/progress";
import { handle } from "@/lib/registry/handle";

export const GET = handle(classes.progress, ({ db, workspaceId, params }) => classProgress(db, workspaceId, params.id));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
