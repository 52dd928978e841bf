import { withSession } from "@/lib/auth/with-session";
import { sendTestEvent } from "@/lib/webhooks/deliveries";

// POST /api/app/webhooks/{id}/test – deliver a sample event in its real wire format
export const POST = withSession<{ id: string }>(async ({ params, db, workspace }) => {
  const { delivery_id, event } = await sendTestEvent(db, workspace.id, params.id);
  return Response.json({ delivery_id, event_id: event.id, event: event.type }, { status: 202 });
});
