import { otherMethods } from "@/lib/platform/http/unrouted";
import { ownCertificationContracts as own } from "@/lib/certification/own/contracts";
import { deleteQuestion, updateQuestion } from "@/lib/certification/own/manage";
import { handle } from "@/lib/registry/handle";

export const PATCH = handle(own.updateQuestion, ({ db, workspaceId, params, body }) => updateQuestion(db, workspaceId, params.id, params.question_id, body));
export const DELETE = handle(own.deleteQuestion, ({ db, workspaceId, params }) => deleteQuestion(db, workspaceId, params.id, params.question_id));
export const { GET, POST, PUT, OPTIONS } = otherMethods({ PATCH, DELETE });
