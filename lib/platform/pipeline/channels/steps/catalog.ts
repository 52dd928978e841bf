import { z } from "zod";
import { templateKeys } from "@/lib/ctf/templates/catalog";

/*
 * The background work, declared once and validated with zod, as lib/platform/pipeline/channels/webhook/events.ts
 * declares the webhook events. Zod only: domain code that schedules a step loads this file,
 * not the Inngest SDK (lib/platform/pipeline/executors/inngest.ts builds its event types from it).
 */

export const id = z.string().min(1);
const rowId = z.number().int().positive();

/** A kind of scheduled step: what it does, and the schema of the payload it is scheduled with. */
function step<P extends z.ZodType<Record<string, unknown>>>(description: string, payload: P) {
  return { description, payload };
}

/**
 * Every kind of scheduled step (table `scheduled_steps`) and the schema of its payload. The
 * kinds are stored in the rows: renaming one strands the steps already scheduled under it.
 * `scheduleStep` validates a payload before it is written, `runStep` again before its
 * handler runs (lib/platform/pipeline/channels/steps/steps.ts); the handlers are assembled in lib/registry/steps.ts.
 */
export const stepCatalog = {
  "ctf.deploy": step("Deploy a competition's instance on its host.", z.object({ ctfId: id })),
  "challenge.generate": step("Generate a challenge from its template (the one asked for, or one of its category drawn at random).", z.object({ challengeId: id, template: z.enum(templateKeys).optional() })),
  "challenge.publish": step("Push a challenge to its competition's host.", z.object({ challengeId: id })),
  "challenge.unpublish": step("Remove a challenge from its competition's host.", z.object({ challengeId: id })),
  "challenge.file.upload": step("Upload a challenge file, added while the challenge exists on CTFd, to its CTFd challenge.", z.object({ fileId: id })),
  "challenge.file.delete": step("Delete a challenge file's copy from CTFd (its CTFd file id) after the file was deleted here.", z.object({ platformFileId: z.number().int().positive() })),
  "deployment.deploy": step("Start a single-challenge deployment.", z.object({ deploymentId: id })),
  "deployment.stop": step("Stop a live deployment when its window elapses.", z.object({ deploymentId: id, reason: z.enum(["window_elapsed", "stopped_by_request"]) })),
  "test.deadline": step("Submit a recipient's attempt at its deadline (time limit or closes_at) with the answers given.", z.object({ recipientId: rowId })),
  "test.reminder": step("E-mail the one reminder to a test's recipients who have not completed reminder_after_hours after it was e-mailed.", z.object({ testId: rowId })),
  "test.result_email": step("E-mail a recipient who completed their result (send_result), with the answers as show_answers allows.", z.object({ recipientId: rowId })),
} as const;

export type StepKind = keyof typeof stepCatalog;
/** What a caller gives `scheduleStep` for a kind. */
export type StepPayload<K extends StepKind> = z.input<(typeof stepCatalog)[K]["payload"]>;
/** What the kind's handler receives: the stored payload, parsed. */
export type StepData<K extends StepKind> = z.output<(typeof stepCatalog)[K]["payload"]>;

export function isStepKind(value: string): value is StepKind {
  return Object.hasOwn(stepCatalog, value);
}

/** Parses a payload with its kind's schema (one cast: TypeScript cannot follow `K` into the catalog). */
export function parseStepPayload<K extends StepKind>(kind: K, payload: unknown): z.ZodSafeParseResult<StepData<K>> {
  return stepCatalog[kind].payload.safeParse(payload) as z.ZodSafeParseResult<StepData<K>>;
}

