import { handle } from "@/lib/platform/http/handle";
import { otherMethods } from "@/lib/platform/http/unrouted";
import { webhookContracts as webhooks } from "@/lib/platform/webhooks/contracts";
import { redeliver } from "@/lib/platform/webhooks/deliveries";

export const POST = handle(webhooks.redeliver, ({ db, workspaceId, params }) => redeliver(db, workspaceId, params.id));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
