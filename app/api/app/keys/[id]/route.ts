import { withSession } from "@/lib/auth/with-session";
import { revokeApiKey } from "@/lib/keys";

// DELETE /api/app/keys/{id} – revoke a key at once
export const DELETE = withSession<{ id: string }>(async ({ params, db, workspace }) =>
  Response.json(await revokeApiKey(db, workspace.id, params.id)),
);
