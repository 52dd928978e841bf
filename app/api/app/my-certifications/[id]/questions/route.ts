import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { listQuestions } from "@/lib/certification/manage";
import { manageCertificationContracts as mine } from "@/lib/certification/manage-contracts";

export const GET = handle(mine.questions, async ({ db, workspaceId, params }) => ({ data: await listQuestions(db, workspaceId, params.id) }));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
