import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { importQuestionsCsv } from "@/lib/certification/manage";
import { manageCertificationContracts as mine } from "@/lib/certification/manage-contracts";

export const POST = handle(mine.importCsv, ({ db, workspaceId, params, body }) => importQuestionsCsv(db, workspaceId, params.id, body));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
