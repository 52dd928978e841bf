import { withSession } from "@/lib/auth/with-session";
import { stopDeployment } from "@/lib/ctf/deployments";

// POST /api/app/deployments/{deployment_id}/stop – stop before the window ends, then deployment.stopped (dashboard)
export const POST = withSession<{ deployment_id: string }>(async ({ params, db, workspace }) =>
  Response.json(await stopDeployment(db, workspace.id, params.deployment_id)),
);
