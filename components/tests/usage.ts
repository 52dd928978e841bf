import { useQuery } from "@tanstack/react-query";
import { callApi } from "@/components/api";
import type { ContractReply } from "@/lib/api/contract";
import { queryKeys } from "@/lib/query-keys";
import { workspaceContracts } from "@/lib/workspaces/contracts";

/** GET /api/app/usage: the plan, its limits and what the workspace uses of them. */
export type UsageView = ContractReply<typeof workspaceContracts.usage>;

export function useUsage() {
  return useQuery({ queryKey: queryKeys.usage(), queryFn: () => callApi(workspaceContracts.usage), staleTime: 60_000 });
}
