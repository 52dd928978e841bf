import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { testAnalysis } from "@/lib/tests/analysis";
import { testContracts as tests } from "@/lib/tests/contracts";

export const GET = handle(tests.analysis, ({ db, workspaceId, params }) => testAnalysis(db, workspaceId, params.code));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
