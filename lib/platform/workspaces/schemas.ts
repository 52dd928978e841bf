import { z } from "zod";
import { planNames } from "@/db/schema/statuses";

export const MAX_WORKSPACE_NAME = 100;

export const planLimitsView = z.object({
  seats: z.number().int().meta({ description: "Recipients one test may have." }),
  classes: z.number().int(),
  students: z.number().int().meta({ description: "Students across all classes, each address once, invited or joined." }),
  apiKeys: z.number().int().meta({ description: "Active API keys." }),
});

/** PATCH /api/app/workspace: the workspace's name, as every e-mail it sends names it. */
export const updateWorkspaceInput = z.object({
  name: z
    .string()
    .trim()
    .min(1, "Give the workspace a name.")
    .max(MAX_WORKSPACE_NAME, `At most ${MAX_WORKSPACE_NAME} characters.`)
    // It is printed in e-mail subjects and previews, where a line break would start a header or a new line.
    .regex(/^[^\p{Cc}]*$/u, "No line breaks or control characters.")
    .meta({ description: "Shown to recipients and students in every e-mail the workspace sends (\"<name> sent you a practice test\")." }),
});
export type UpdateWorkspaceInput = z.output<typeof updateWorkspaceInput>;

export const workspaceSettingsView = z
  .object({
    id: z.string(),
    name: z.string(),
    plan: z.enum(planNames),
    limits: planLimitsView,
    usage: z.object({
      classes: z.number().int(),
      students: z.number().int().meta({ description: "Counted as the limit is: each address once across all classes, invited or joined." }),
      largest_test: z.number().int().meta({ description: "Recipients of the workspace's largest test (seats are counted per test)." }),
      api_keys: z.number().int().meta({ description: "Active API keys." }),
    }),
    plans: z
      .array(z.object({ name: z.enum(planNames), limits: planLimitsView, current: z.boolean() }))
      .meta({ description: "Every plan, from the smallest, with its limits: what a higher plan allows." }),
  })
  .meta({ id: "WorkspaceSettings" });
export type WorkspaceSettingsView = z.infer<typeof workspaceSettingsView>;
