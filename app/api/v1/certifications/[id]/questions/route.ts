import { otherMethods } from "@/lib/platform/http/unrouted";
import { ownCertificationContracts as own } from "@/lib/certification/own/contracts";
import { listQuestions } from "@/lib/certification/own/manage";
import { handle } from "@/lib/registry/handle";

export const GET = handle(own.questions, ({ db, workspaceId, params, query }) => listQuestions(db, workspaceId, params.id, query));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
