import { otherMethods } from "@/lib/platform/http/unrouted";
import { listDeliveries } from "@/lib/platform/webhooks/deliveries";
import { testResultEndpointContracts as testResults } from "@/lib/platform/webhooks/management-contracts";
import { handle } from "@/lib/registry/handle";

export const GET = handle(testResults.deliveries, ({ db, workspaceId, params, query }) => listDeliveries(db, workspaceId, params.id, query, "certification"));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
