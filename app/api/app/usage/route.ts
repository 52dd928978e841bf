import { otherMethods } from "@/lib/platform/http/unrouted";
import { planLimits } from "@/lib/platform/workspaces/plans";
import { workspaceContracts as workspaces } from "@/lib/platform/workspaces/contracts";
import { workspaceUsage } from "@/lib/platform/workspaces/usage";
import { handle } from "@/lib/registry/handle";

export const GET = handle(workspaces.usage, async ({ db, workspace }) => ({
  plan: workspace.plan,
  limits: planLimits(workspace.plan),
  usage: await workspaceUsage(db, workspace.id),
}));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
