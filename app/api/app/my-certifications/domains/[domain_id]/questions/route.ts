import { otherMethods } from "@/lib/platform/http/unrouted";
import { addQuestion } from "@/lib/certification/own/manage";
import { manageCertificationContracts as mine } from "@/lib/certification/own/contracts";
import { handle } from "@/lib/registry/handle";

export const POST = handle(mine.addQuestion, ({ db, workspaceId, params, body }) => addQuestion(db, workspaceId, params.domain_id, body));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
