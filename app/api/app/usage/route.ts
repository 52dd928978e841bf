import { withSession } from "@/lib/auth/with-session";
import { planLimits } from "@/lib/plans";
import { workspaceUsage } from "@/lib/workspaces/usage";

// GET /api/app/usage – the workspace's plan, its limits and what is used of them (dashboard)
export const GET = withSession(async ({ db, workspace }) =>
  Response.json({ plan: workspace.plan, limits: planLimits(workspace.plan), usage: await workspaceUsage(db, workspace.id) }),
);
