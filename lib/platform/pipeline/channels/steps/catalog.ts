import { z } from "zod";
import { templateKeys } from "@/lib/ctf/templates/catalog";

/*
 * The background work, declared once and validated with zod, as lib/platform/pipeline/channels/webhook/events.ts
 * declares the webhook events. Zod only: domain code that schedules a step loads this file,
 * not the Inngest SDK (lib/platform/pipeline/executors/inngest.ts builds its event types from it).
 */

const id = z.string().min(1);
const rowId = z.number().int().positive();

/** A kind of scheduled step: what it does, and the schema of the payload it is scheduled with. */
function step<P extends z.ZodType<Record<string, unknown>>>(description: string, payload: P) {
  return { description, payload };
}

/** An event the Inngest executor sends itself: its name, what it means, and the schema of its data. */
function jobEvent<N extends `certify/${string}`, D extends z.ZodType<Record<string, unknown>>>(name: N, description: string, data: D) {
  return { name, description, data };
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

/**
 * The events the Inngest executor sends itself, one per outbox table: the event's name and
 * the schema of its data (the SDK validates them when they are sent and when a run receives
 * them).
 */
export const jobEventCatalog = {
  webhookDeliveryRequested: jobEvent("certify/webhook.delivery.requested", "A webhook delivery is pending.", z.object({ deliveryId: id, endpointId: id })),
  emailSendRequested: jobEvent("certify/email.send.requested", "Queued e-mails are to be sent, at most 500 per event.", z.object({ ids: z.array(id).min(1).max(500) })),
  stepScheduled: jobEvent("certify/step.scheduled", "A scheduled step is pending; the run sleeps until it is due.", z.object({ stepId: id, runAt: z.iso.datetime({ offset: true }) })),
} as const;

export type JobEventKey = keyof typeof jobEventCatalog;
/** The data of an event of the catalog, parsed. */
export type JobEventData<K extends JobEventKey> = z.output<(typeof jobEventCatalog)[K]["data"]>;

/** Parses an event's data with its schema (one cast, as parseStepPayload). */
export function parseJobEvent<K extends JobEventKey>(key: K, data: unknown): z.ZodSafeParseResult<JobEventData<K>> {
  return jobEventCatalog[key].data.safeParse(data) as z.ZodSafeParseResult<JobEventData<K>>;
}
