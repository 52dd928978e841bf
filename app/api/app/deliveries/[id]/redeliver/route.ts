import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { webhookContracts as webhooks } from "@/lib/webhooks/contracts";
import { redeliver } from "@/lib/webhooks/deliveries";

export const POST = handle(webhooks.redeliver, ({ db, workspaceId, params }) => redeliver(db, workspaceId, params.id));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
