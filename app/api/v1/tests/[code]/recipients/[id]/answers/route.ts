import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { answerSheet } from "@/lib/tests/answer-sheet";
import { testContracts as tests } from "@/lib/tests/contracts";

export const GET = handle(tests.answers, ({ db, workspaceId, params }) => answerSheet(db, workspaceId, params.code, params.id));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
