import { otherMethods } from "@/lib/platform/http/unrouted";
import { listQuestions } from "@/lib/certification/own/manage";
import { manageCertificationContracts as mine } from "@/lib/certification/own/contracts";
import { handle } from "@/lib/registry/handle";

export const GET = handle(mine.questions, async ({ db, workspaceId, params }) => ({ data: await listQuestions(db, workspaceId, params.id) }));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
