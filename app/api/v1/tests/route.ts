import { otherMethods } from "@/lib/platform/http/unrouted";
import { testContracts as tests } from "@/lib/certification/tests/contracts";
import { createTest, listTests } from "@/lib/certification/tests/tests";
import { handle } from "@/lib/registry/handle";

export const GET = handle(tests.list, ({ db, workspaceId, query }) => listTests(db, workspaceId, query));
export const POST = handle(tests.create, ({ db, workspaceId, body }) => createTest(db, workspaceId, body));
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
