import { otherMethods } from "@/lib/platform/http/unrouted";
import { createApiKey, listApiKeys } from "@/lib/platform/keys";
import { keyContracts as keys } from "@/lib/platform/keys/contracts";
import { handle } from "@/lib/registry/handle";

export const GET = handle(keys.list, async ({ db, workspaceId }) => ({ data: await listApiKeys(db, workspaceId) }));
export const POST = handle(keys.create, ({ db, workspaceId, body }) => createApiKey(db, workspaceId, body));
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
