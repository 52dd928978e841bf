import { otherMethods } from "@/lib/platform/http/unrouted";
import { answerSheet } from "@/lib/certification/insight/answer-sheet";
import { testContracts as tests } from "@/lib/certification/tests/contracts";
import { handle } from "@/lib/registry/handle";

export const GET = handle(tests.answers, ({ db, workspaceId, params }) => answerSheet(db, workspaceId, params.code, params.id));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
