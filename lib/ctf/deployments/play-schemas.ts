import { z } from "zod";
import { pageSchema } from "@/lib/kernel/paging";

/** `POST /api/d/{deployment_id}/join`: the display name a visitor plays a standalone deployment under. */
export const deploymentJoinInput = z.object({
  name: z.string().trim().min(1, "Give a display name.").max(40, "At most 40 characters.").meta({ description: "Shown to the organiser with the solve; never an address." }),
});
export type DeploymentJoinInput = z.output<typeof deploymentJoinInput>;

export const deploymentPlayerView = z
  .object({
    player_id: z.string().meta({ description: "`dpl_…`: this deployment's player, signed in by the cookie `dep_player_{deployment_id}`." }),
    name: z.string(),
  })
  .meta({ id: "DeploymentPlayer" });
export type DeploymentPlayerView = z.infer<typeof deploymentPlayerView>;

/** `GET /api/v1/deployments/{deployment_id}/solves`: who solved the deployment's challenge, first solver first. */
export const deploymentSolveRecord = z
  .object({
    player_id: z.string(),
    name: z.string().meta({ description: "The display name the player gave." }),
    points: z.number().int().meta({ description: "The challenge's points when solved." }),
    hints_cost: z.number().int().meta({ description: "What the hints this player unlocked cost." }),
    score: z.number().int().meta({ description: "points − hints_cost." }),
    attempts: z.number().int().meta({ description: "Flags submitted up to and including the correct one." }),
    solved_at: z.string(),
  })
  .meta({ id: "DeploymentSolve" });
export type DeploymentSolveRecord = z.infer<typeof deploymentSolveRecord>;
export const deploymentSolveList = pageSchema(deploymentSolveRecord).meta({ id: "DeploymentSolveList" });
