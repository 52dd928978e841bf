import { handle } from "@/lib/api/handle";
import { listQuestions } from "@/lib/certification/manage";
import { manageCertificationContracts as mine } from "@/lib/certification/manage-contracts";

export const GET = handle(mine.questions, async ({ db, workspaceId, params }) => ({ data: await listQuestions(db, workspaceId, params.id) }));
