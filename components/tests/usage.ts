import { useQuery } from "@tanstack/react-query";
import { fetchJson } from "@/components/fetch-json";
import type { PlanName } from "@/db/schema";
import type { PlanLimits } from "@/lib/plans";
import { queryKeys } from "@/lib/query-keys";
import type { WorkspaceUsage } from "@/lib/workspaces/usage";

/** GET /api/app/usage. */
export type UsageView = { plan: PlanName; limits: PlanLimits; usage: WorkspaceUsage };

export function useUsage() {
  return useQuery({ queryKey: queryKeys.usage(), queryFn: () => fetchJson<UsageView>("/api/app/usage"), staleTime: 60_000 });
}
