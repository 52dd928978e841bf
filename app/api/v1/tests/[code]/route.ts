import { handle } from "@/lib/api/handle";
import { testContracts as tests } from "@/lib/tests/contracts";
import { getTest } from "@/lib/tests/tests";

export const GET = handle(tests.get, ({ db, workspaceId, params }) => getTest(db, workspaceId, params.code));
