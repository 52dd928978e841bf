import { otherMethods } from "@/lib/platform/http/unrouted";
import { importQuestionsCsv } from "@/lib/certification/own/manage";
import { manageCertificationContracts as mine } from "@/lib/certification/own/contracts";
import { handle } from "@/lib/registry/handle";

export const POST = handle(mine.importCsv, ({ db, workspaceId, params, body }) => importQuestionsCsv(db, workspaceId, params.id, body));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
