import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { planLimits } from "@/lib/plans";
import { workspaceContracts as workspaces } from "@/lib/workspaces/contracts";
import { workspaceUsage } from "@/lib/workspaces/usage";

export const GET = handle(workspaces.usage, async ({ db, workspace }) => ({
  plan: workspace.plan,
  limits: planLimits(workspace.plan),
  usage: await workspaceUsage(db, workspace.id),
}));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
