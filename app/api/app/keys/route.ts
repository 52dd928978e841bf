import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { createApiKey, listApiKeys } from "@/lib/keys";
import { keyContracts as keys } from "@/lib/keys/contracts";

export const GET = handle(keys.list, async ({ db, workspaceId }) => ({ data: await listApiKeys(db, workspaceId) }));
export const POST = handle(keys.create, ({ db, workspaceId, body }) => createApiKey(db, workspaceId, body));
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
