import { otherMethods } from "@/lib/platform/http/unrouted";
import { webhookContracts as webhooks } from "@/lib/platform/webhooks/contracts";
import { redeliver } from "@/lib/platform/webhooks/deliveries";
import { handle } from "@/lib/registry/handle";

export const POST = handle(webhooks.redeliver, ({ db, workspaceId, params }) => redeliver(db, workspaceId, params.id));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
