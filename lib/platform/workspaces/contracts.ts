import { z } from "zod";
import { planNames } from "@/db/schema/statuses";
import { contract } from "@/lib/kernel/contract";
import { updateWorkspaceInput, welcomeInput, welcomeView, workspaceSettingsView } from "./schemas";

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
  welcome: contract({
    id: "workspace.welcome",
    method: "POST",
    path: "/api/app/welcome",
    caller: "session",
    body: welcomeInput,
    status: 200,
    response: welcomeView,
    docs: {
      tag,
      summary: "Answer the welcome step (additive)",
      description:
        "The first sign-in's welcome step on the Tests page: `your_name` becomes the trainer's name, `organisation_name` the workspace's name; " +
        "both optional, an empty body skips it. Either way it is not shown again. Until the workspace is named, e-mails carry the trainer's name, " +
        "else their e-mail address, instead of the default \"<address before @>'s workspace\".",
    },
  }),
};
