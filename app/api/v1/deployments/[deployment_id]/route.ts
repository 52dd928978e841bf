import { json, withApiKey } from "@/lib/api/with-api-key";
import { getDeployment } from "@/lib/ctf/deployments";

// GET /api/v1/deployments/{deployment_id}
export const GET = withApiKey<{ deployment_id: string }>(async ({ params, db, workspaceId }) => json(await getDeployment(db, workspaceId, params.deployment_id)), {
  scope: "ctf:read",
});
