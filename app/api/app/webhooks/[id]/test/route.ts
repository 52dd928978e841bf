import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { webhookContracts as webhooks } from "@/lib/webhooks/contracts";
import { sendTestEvent } from "@/lib/webhooks/deliveries";

export const POST = handle(webhooks.sendTest, async ({ db, workspaceId, params }) => {
  const { delivery_id, event } = await sendTestEvent(db, workspaceId, params.id);
  return { delivery_id, event_id: event.id, event: event.type };
});
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
