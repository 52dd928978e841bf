import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { testContracts as tests } from "@/lib/tests/contracts";
import { createTest, listTests } from "@/lib/tests/tests";

export const GET = handle(tests.list, ({ db, workspaceId, query }) => listTests(db, workspaceId, query));
export const POST = handle(tests.create, ({ db, workspaceId, body }) => createTest(db, workspaceId, body));
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
