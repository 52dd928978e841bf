import { otherMethods } from "@/lib/platform/http/unrouted";
import { webhookContracts as webhooks } from "@/lib/platform/webhooks/contracts";
import { sendTestEvent } from "@/lib/platform/webhooks/deliveries";
import { handle } from "@/lib/registry/handle";

export const POST = handle(webhooks.sendTest, async ({ db, workspaceId, params }) => {
  const { delivery_id, event } = await sendTestEvent(db, workspaceId, params.id);
  return { delivery_id, event_id: event.id, event: event.type };
});
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
