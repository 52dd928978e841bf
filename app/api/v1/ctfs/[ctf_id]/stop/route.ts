import { json, withApiKey } from "@/lib/api/with-api-key";
import { stopCtf } from "@/lib/ctf/competitions";

// POST /api/v1/ctfs/{ctf_id}/stop – take the running instance down
export const POST = withApiKey<{ ctf_id: string }>(async ({ params, db, workspaceId }) => json(await stopCtf(db, workspaceId, params.ctf_id), 200), {
  scope: "ctf:deploy",
});
