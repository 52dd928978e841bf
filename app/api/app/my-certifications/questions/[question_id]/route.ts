import { otherMethods } from "@/lib/platform/http/unrouted";
import { deleteQuestion, updateQuestion } from "@/lib/certification/own/manage";
import { manageCertificationContracts as mine } from "@/lib/certification/own/contracts";
import { handle } from "@/lib/registry/handle";

export const PATCH = handle(mine.updateQuestion, ({ db, workspaceId, params, body }) => updateQuestion(db, workspaceId, params.question_id, body));
export const DELETE = handle(mine.deleteQuestion, ({ db, workspaceId, params }) => deleteQuestion(db, workspaceId, params.question_id));
export const { GET, POST, PUT, OPTIONS } = otherMethods({ PATCH, DELETE });
