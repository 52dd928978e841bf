import { handle } from "@/lib/api/handle";
import { importQuestionsCsv } from "@/lib/certification/manage";
import { manageCertificationContracts as mine } from "@/lib/certification/manage-contracts";

export const POST = handle(mine.importCsv, ({ db, workspaceId, params, body }) => importQuestionsCsv(db, workspaceId, params.id, body));
