import { otherMethods } from "@/lib/platform/http/unrouted";
import { redeliver } from "@/lib/platform/webhooks/deliveries";
import { testResultEndpointContracts as manage } from "@/lib/platform/webhooks/management-contracts";
import { handle } from "@/lib/registry/handle";

export const POST = handle(manage.redeliver, ({ db, workspaceId, params }) =>
  redeliver(db, workspaceId, params.delivery_id, { endpointId: params.id, service: "certification" }),
);
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
