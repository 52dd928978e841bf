import { json, withApiKey } from "@/lib/api/with-api-key";
import { stopDeployment } from "@/lib/ctf/deployments";

// POST /api/v1/deployments/{deployment_id}/stop – stop before the window ends (deployment.stopped)
export const POST = withApiKey<{ deployment_id: string }>(async ({ params, db, workspaceId }) => json(await stopDeployment(db, workspaceId, params.deployment_id)), {
  scope: "ctf:deploy",
});
