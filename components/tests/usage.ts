import { useQuery } from "@tanstack/react-query";
import { callApi } from "@/components/api";
import type { ContractReply } from "@/lib/kernel/contract";
import { queryKeys } from "@/components/query-keys";
import { workspaceContracts } from "@/lib/platform/workspaces/contracts";

/** GET /api/app/usage: the plan, its limits and what the workspace uses of them. */
export type UsageView = ContractReply<typeof workspaceContracts.usage>;

export function useUsage() {
  return useQuery({ queryKey: queryKeys.usage(), queryFn: () => callApi(workspaceContracts.usage), staleTime: 60_000 });
}
