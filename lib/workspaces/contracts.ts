import { z } from "zod";
import { planNames } from "@/db/schema/statuses";
import { contract } from "@/lib/api/contract";

const limits = z.object({ seats: z.number().int(), classes: z.number().int(), students: z.number().int(), apiKeys: z.number().int() });

/** The workspace's plan and what it uses of it: dashboard-only. */
export const workspaceContracts = {
  usage: contract({
    id: "workspace.usage",
    method: "GET",
    path: "/api/app/usage",
    caller: "session",
    status: 200,
    response: z.object({
      plan: z.enum(planNames),
      limits,
      usage: z.object({ classes: z.number().int(), students: z.number().int() }),
    }),
    docs: { tag: "Dashboard: workspace", summary: "Plan, limits and usage", description: "Classes and students counted the way the limits are checked." },
  }),
};
