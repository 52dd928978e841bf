import { z } from "zod";
import { templateKeys } from "@/lib/ctf/template-catalog";

/*
 * The background work, declared once and validated with zod, as lib/events/catalog.ts
 * declares the webhook events. Zod only: domain code that schedules a step loads this file,
 * not the Inngest SDK (lib/jobs/inngest.ts builds its event types from it).
 */

const id = z.string().min(1);
const rowId = z.number().int().positive();

/**
 * Every kind of scheduled step (table `scheduled_steps`) and the schema of its payload. The
 * kinds are stored in the rows: renaming one strands the steps already scheduled under it.
 * `scheduleStep` validates a payload before it is written, `runStep` again before its
 * handler runs (lib/outbox/steps.ts); the handlers are assembled in lib/jobs/handlers.ts.
 */
export const stepCatalog = {
  "ctf.deploy": {
    description: "Deploy a competition's instance on its host.",
    payload: z.object({ ctfId: id }),
  },
  "challenge.generate": {
    description: "Generate a challenge from its template (the one asked for, or one of its category drawn at random).",
    payload: z.object({ challengeId: id, template: z.enum(templateKeys).optional() }),
  },
  "challenge.publish": {
    description: "Push a challenge to its competition's host.",
    payload: z.object({ challengeId: id }),
  },
  "challenge.unpublish": {
    description: "Remove a challenge from its competition's host.",
    payload: z.object({ challengeId: id }),
  },
  "challenge.file.upload": {
    description: "Upload a challenge file, added while the challenge exists on CTFd, to its CTFd challenge.",
    payload: z.object({ fileId: id }),
  },
  "challenge.file.delete": {
    description: "Delete a challenge file's copy from CTFd (its CTFd file id) after the file was deleted here.",
    payload: z.object({ platformFileId: z.number().int().positive() }),
  },
  "deployment.deploy": {
    description: "Start a single-challenge deployment.",
    payload: z.object({ deploymentId: id }),
  },
  "deployment.stop": {
    description: "Stop a live deployment when its window elapses.",
    payload: z.object({ deploymentId: id, reason: z.enum(["window_elapsed", "stopped_by_request"]) }),
  },
  "test.deadline": {
    description: "Submit a recipient's attempt at its deadline (time limit or closes_at) with the answers given.",
    payload: z.object({ recipientId: rowId }),
  },
  "test.reminder": {
    description: "E-mail the one reminder to a test's recipients who have not completed reminder_after_hours after it was e-mailed.",
    payload: z.object({ testId: rowId }),
  },
  "test.result_email": {
    description: "E-mail a recipient who completed their result (send_result), with the answers as show_answers allows.",
    payload: z.object({ recipientId: rowId }),
  },
} as const satisfies Record<string, { description: string; payload: z.ZodType<Record<string, unknown>> }>;

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
  webhookDeliveryRequested: {
    name: "certify/webhook.delivery.requested",
    description: "A webhook delivery is pending.",
    data: z.object({ deliveryId: id, endpointId: id }),
  },
  emailSendRequested: {
    name: "certify/email.send.requested",
    description: "Queued e-mails are to be sent, at most 500 per event.",
    data: z.object({ ids: z.array(id).min(1).max(500) }),
  },
  stepScheduled: {
    name: "certify/step.scheduled",
    description: "A scheduled step is pending; the run sleeps until it is due.",
    data: z.object({ stepId: id, runAt: z.iso.datetime({ offset: true }) }),
  },
} as const satisfies Record<string, { name: `certify/${string}`; description: string; data: z.ZodType<Record<string, unknown>> }>;
