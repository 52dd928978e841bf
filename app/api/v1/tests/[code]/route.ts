import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { testContracts as tests } from "@/lib/tests/contracts";
import { getTest } from "@/lib/tests/tests";

export const GET = handle(tests.get, ({ db, workspaceId, params }) => getTest(db, workspaceId, params.code));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
