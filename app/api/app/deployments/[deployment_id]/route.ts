import { withSession } from "@/lib/auth/with-session";
import { getDeployment } from "@/lib/ctf/deployments";

// GET /api/app/deployments/{deployment_id} (dashboard)
export const GET = withSession<{ deployment_id: string }>(async ({ params, db, workspace }) =>
  Response.json(await getDeployment(db, workspace.id, params.deployment_id)),
);
