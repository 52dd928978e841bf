import { otherMethods } from "@/lib/platform/http/unrouted";
import { webhookContracts as webhooks } from "@/lib/platform/webhooks/contracts";
import { listDeliveries } from "@/lib/platform/webhooks/deliveries";
import { handle } from "@/lib/registry/handle";

export const GET = handle(webhooks.testResultDeliveries, ({ db, workspaceId, params, query }) => listDeliveries(db, workspaceId, params.id, query, "certification"));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
