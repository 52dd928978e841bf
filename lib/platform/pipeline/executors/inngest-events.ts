import { z } from "zod";

const id = z.string().min(1);

/** An event the Inngest executor sends itself: its name, what it means, and the schema of its data. */
function jobEvent<N extends `certify/${string}`, D extends z.ZodType<Record<string, unknown>>>(name: N, description: string, data: D) {
  return { name, description, data };
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
