import { z } from "zod";
import { planNames } from "@/db/schema/statuses";
import { contract } from "@/lib/kernel/contract";
import { updateWorkspaceInput, workspaceSettingsView } from "./schemas";

const limits = z.object({ seats: z.number().int(), classes: z.number().int(), students: z.number().int(), apiKeys: z.number().int() });

const tag = "Dashboard: workspace";

/**
 * The workspace's settings, plan and usage: dashboard-only, like API keys (an integrator's
 * key acts in the workspace; it does not manage it).
 */
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
    docs: { tag, summary: "Plan, limits and usage", description: "Classes and students counted the way the limits are checked." },
  }),
  get: contract({
    id: "workspace.get",
    method: "GET",
    path: "/api/app/workspace",
    caller: "session",
    status: 200,
    response: workspaceSettingsView,
    docs: {
      tag,
      summary: "The workspace's settings",
      description: "Its name, its plan with the limits and what the workspace uses of them (classes, students, the largest test's recipients, active keys), and every plan's limits.",
    },
  }),
  update: contract({
    id: "workspace.update",
    method: "PATCH",
    path: "/api/app/workspace",
    caller: "session",
    body: updateWorkspaceInput,
    status: 200,
    response: workspaceSettingsView,
    docs: {
      tag,
      summary: "Rename the workspace, set its certificates' issuer",
      description:
        "`name`: the name every e-mail of the workspace carries from now on (tests, class invitations, competition invitations). Additive: " +
        "`organisation_name` and `certificate_signer`, printed on certificates issued from now on. Each field is optional; absent ones stay.",
    },
  }),
};
