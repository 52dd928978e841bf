import { withSession } from "@/lib/auth/with-session";
import { redeliver } from "@/lib/webhooks/deliveries";

// POST /api/app/deliveries/{id}/redeliver – a fresh delivery of the same event
export const POST = withSession<{ id: string }>(async ({ params, db, workspace }) =>
  Response.json(await redeliver(db, workspace.id, params.id), { status: 202 }),
);
