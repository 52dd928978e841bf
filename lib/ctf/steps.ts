import { z } from "zod";
import { step, type StepCatalog } from "@/lib/platform/pipeline/channels/steps/catalog";
import { stepScheduler } from "@/lib/platform/pipeline/channels/steps/steps";
import { templateKeys } from "./templates/catalog";

const id = z.string().min(1);

/**
 * The competition platform's scheduled steps and the schema of each payload: `scheduleStep`
 * validates a payload before it is written, the executor again before its handler
 * (./step-handlers.ts) runs. The kinds are stored in the rows: renaming one strands the steps
 * already scheduled under it.
 */
export const ctfSteps = {
  "ctf.deploy": step("Deploy a competition's instance on its host.", z.object({ ctfId: id })),
  "challenge.generate": step("Generate a challenge from its template (the one asked for, or one of its category drawn at random).", z.object({ challengeId: id, template: z.enum(templateKeys).optional() })),
  "challenge.publish": step("Push a challenge to its competition's host.", z.object({ challengeId: id })),
  "challenge.unpublish": step("Remove a challenge from its competition's host.", z.object({ challengeId: id })),
  "challenge.file.upload": step("Upload a challenge file, added while the challenge exists on CTFd, to its CTFd challenge.", z.object({ fileId: id })),
  "challenge.file.delete": step("Delete a challenge file's copy from CTFd (its CTFd file id) after the file was deleted here.", z.object({ platformFileId: z.number().int().positive() })),
  "deployment.deploy": step("Start a single-challenge deployment.", z.object({ deploymentId: id })),
  "deployment.stop": step("Stop a live deployment when its window elapses.", z.object({ deploymentId: id, reason: z.enum(["window_elapsed", "stopped_by_request"]) })),
} as const satisfies StepCatalog;

/** Schedules one of the competition platform's steps in the caller's transaction. */
export const scheduleStep = stepScheduler(ctfSteps);
