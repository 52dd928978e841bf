import { otherMethods } from "@/lib/platform/http/unrouted";
import { testAnalysis } from "@/lib/certification/insight/analysis";
import { handle } from "@/lib/registry/handle";
import { insightContracts } from "@/lib/certification/insight/contracts";

export const GET = handle(insightContracts.analysis, ({ db, workspaceId, params }) => testAnalysis(db, workspaceId, params.code));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
