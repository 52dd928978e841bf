import { handle } from "@/lib/platform/http/handle";
import { otherMethods } from "@/lib/platform/http/unrouted";
import { webhookContracts as webhooks } from "@/lib/platform/webhooks/contracts";
import { listDeliveries } from "@/lib/platform/webhooks/deliveries";

export const GET = handle(webhooks.deliveries, ({ db, workspaceId, params, query }) => listDeliveries(db, workspaceId, params.id, query, "competition"));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
