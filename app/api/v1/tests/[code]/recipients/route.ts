import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { testContracts as tests } from "@/lib/tests/contracts";
import { addRecipients } from "@/lib/tests/tests";

export const POST = handle(tests.addRecipients, async ({ db, workspaceId, params, body }) => ({ data: await addRecipients(db, workspaceId, params.code, body) }));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
