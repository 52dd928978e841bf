import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { addQuestion } from "@/lib/certification/manage";
import { manageCertificationContracts as mine } from "@/lib/certification/manage-contracts";

export const POST = handle(mine.addQuestion, ({ db, workspaceId, params, body }) => addQuestion(db, workspaceId, params.domain_id, body));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
