import { otherMethods } from "@/lib/platform/http/unrouted";
import { testContracts as tests } from "@/lib/certification/tests/contracts";
import { addRecipients } from "@/lib/certification/tests/tests";
import { handle } from "@/lib/registry/handle";

export const POST = handle(tests.addRecipients, async ({ db, workspaceId, params, body }) => ({ data: await addRecipients(db, workspaceId, params.code, body) }));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
