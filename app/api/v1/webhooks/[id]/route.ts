import { json, withApiKey } from "@/lib/api/with-api-key";
import { deleteWebhook } from "@/lib/webhooks/endpoints";

// DELETE /api/v1/webhooks/{id} – remove an endpoint; nothing more is sent to it
export const DELETE = withApiKey<{ id: string }>(
  async ({ params, db, workspaceId }) => json({ deleted: true, webhook: await deleteWebhook(db, workspaceId, params.id) }),
  { scope: "ctf:admin" },
);
