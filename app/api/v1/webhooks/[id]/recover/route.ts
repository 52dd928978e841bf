import { otherMethods } from "@/lib/platform/http/unrouted";
import { recoverDeliveries } from "@/lib/platform/webhooks/deliveries";
import { competitionEndpointContracts as manage } from "@/lib/platform/webhooks/management-contracts";
import { handle } from "@/lib/registry/handle";

export const POST = handle(manage.recover, ({ db, workspaceId, params, body }) => recoverDeliveries(db, workspaceId, "competition", params.id, body.since));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
