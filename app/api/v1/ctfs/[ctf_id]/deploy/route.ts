import { json, withApiKey } from "@/lib/api/with-api-key";
import { deployCtf } from "@/lib/ctf/competitions";

// POST /api/v1/ctfs/{ctf_id}/deploy – asynchronous: deploying, then deployed and ctf.deployed
export const POST = withApiKey<{ ctf_id: string }>(async ({ params, db, workspaceId }) => json(await deployCtf(db, workspaceId, params.ctf_id), 202), {
  scope: "ctf:deploy",
});
