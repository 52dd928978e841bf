import { otherMethods } from "@/lib/platform/http/unrouted";
import { revokeApiKey } from "@/lib/platform/keys";
import { keyContracts as keys } from "@/lib/platform/keys/contracts";
import { handle } from "@/lib/registry/handle";

export const DELETE = handle(keys.revoke, ({ db, workspaceId, params }) => revokeApiKey(db, workspaceId, params.id));
export const { GET, POST, PUT, PATCH, OPTIONS } = otherMethods({ DELETE });
