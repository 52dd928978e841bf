import { otherMethods } from "@/lib/platform/http/unrouted";
import { testAnalysis } from "@/lib/certification/insight/analysis";
import { testContracts as tests } from "@/lib/certification/tests/contracts";
import { handle } from "@/lib/registry/handle";

export const GET = handle(tests.analysis, ({ db, workspaceId, params }) => testAnalysis(db, workspaceId, params.code));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
