import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { webhookContracts as webhooks } from "@/lib/webhooks/contracts";
import { listDeliveries } from "@/lib/webhooks/deliveries";

export const GET = handle(webhooks.deliveries, ({ db, workspaceId, params, query }) => listDeliveries(db, workspaceId, params.id, query, "competition"));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
