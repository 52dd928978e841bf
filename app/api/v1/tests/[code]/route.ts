import { otherMethods } from "@/lib/platform/http/unrouted";
import { testContracts as tests } from "@/lib/certification/tests/contracts";
import { getTest } from "@/lib/certification/tests/tests";
import { recipientsPaging } from "@/lib/certification/tests/schemas";
import { handle } from "@/lib/registry/handle";

export const GET = handle(tests.get, ({ db, workspaceId, params, query }) => getTest(db, workspaceId, params.code, recipientsPaging(query)));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
