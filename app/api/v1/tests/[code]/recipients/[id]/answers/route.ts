import { otherMethods } from "@/lib/platform/http/unrouted";
import { answerSheet } from "@/lib/certification/insight/answer-sheet";
import { handle } from "@/lib/registry/handle";
import { insightContracts } from "@/lib/certification/insight/contracts";

export const GET = handle(insightContracts.answers, ({ db, workspaceId, params }) => answerSheet(db, workspaceId, params.code, params.id));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
