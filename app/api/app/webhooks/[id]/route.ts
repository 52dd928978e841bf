import { withSession } from "@/lib/auth/with-session";
import { deleteWebhook } from "@/lib/webhooks/endpoints";

// DELETE /api/app/webhooks/{id}
export const DELETE = withSession<{ id: string }>(async ({ params, db, workspace }) =>
  Response.json(await deleteWebhook(db, workspace.id, params.id)),
);
