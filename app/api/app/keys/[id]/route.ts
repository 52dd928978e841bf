import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { revokeApiKey } from "@/lib/keys";
import { keyContracts as keys } from "@/lib/keys/contracts";

export const DELETE = handle(keys.revoke, ({ db, workspaceId, params }) => revokeApiKey(db, workspaceId, params.id));
export const { GET, POST, PUT, PATCH, OPTIONS } = otherMethods({ DELETE });
