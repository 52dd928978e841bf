import { json, withApiKey } from "@/lib/api/with-api-key";
import { archiveCtf } from "@/lib/ctf/competitions";

// POST /api/v1/ctfs/{ctf_id}/archive – store the final snapshot, then ctf.archived
export const POST = withApiKey<{ ctf_id: string }>(async ({ params, db, workspaceId }) => json(await archiveCtf(db, workspaceId, params.ctf_id), 200), {
  scope: "ctf:deploy",
});
