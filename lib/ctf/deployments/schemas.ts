import { z } from "zod";
import { deploymentStatuses } from "@/db/schema/statuses";
import { pageSchema, pagingQuery } from "@/lib/kernel/paging";
import { isoDate } from "@/lib/ctf/competitions/schemas";
export const createDeploymentInput = z
  .object({
    challenge_id: z.string().min(1),
    duration_minutes: z.number().int().min(1).max(60 * 24 * 30).optional().meta({ description: "Window length from now; or give ends_at." }),
    ends_at: isoDate.optional(),
  })
  .refine((value) => (value.duration_minutes === undefined) !== (value.ends_at === undefined), {
    message: "Give either duration_minutes or ends_at.",
    path: ["duration_minutes"],
  })
  // Runs only on a parsed date: with "tomorrow" the field error above is the answer, not a crash here.
  .refine((value) => !(value.ends_at instanceof Date) || value.ends_at.getTime() > Date.now(), { message: "ends_at must be in the future.", path: ["ends_at"] });

export type CreateDeploymentInput = z.output<typeof createDeploymentInput>;

export const deploymentView = z
  .object({
    id: z.string().meta({ example: "dep_01JD6S1B9R8W6H3KX1ZJ0V5N2Q" }),
    challenge_id: z.string(),
    status: z.enum(deploymentStatuses),
    url: z.string().nullable(),
    starts_at: z.string(),
    ends_at: z.string(),
    stop_reason: z.string().nullable(),
    last_error: z.string().nullable(),
    created_at: z.string(),
    live_at: z.string().nullable(),
    stopped_at: z.string().nullable(),
  })
  .meta({ id: "Deployment" });

export type DeploymentView = z.infer<typeof deploymentView>;

export const deploymentList = pageSchema(deploymentView).meta({ id: "DeploymentList" });

/** `GET /deployments?ctf_id=`: the competition's deployments, each with its challenge's title (additive). */
export const ctfDeploymentList = pageSchema(deploymentView.extend({ challenge_title: z.string() })).meta({ id: "CtfDeploymentList" });

export const listDeploymentsQuery = pagingQuery.extend({
  ctf_id: z.string().min(1).max(64).optional().meta({ description: "Not in the specification (additive): only the deployments of this competition's challenges, each with `challenge_title`." }),
});
