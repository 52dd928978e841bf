import { z } from "zod";
import { attemptStates, deliveryStatuses } from "@/db/schema/statuses";
import { pageSchema } from "@/lib/kernel/paging";
import { certificationEvent, competitionEvents } from "@/lib/platform/pipeline/channels/webhook/events";

export const webhookUrl = z
  .string()
  .trim()
  .max(2048, "At most 2048 characters.")
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === "http:" || url.protocol === "https:") && Boolean(url.hostname);
    } catch {
      return false;
    }
  }, "url must be an absolute http:// or https:// URL.");

// Typed as strings (not the nine literals) so the dashboard's form state passes as is; the values are checked here.
const competitionEvent = z.enum(competitionEvents as [string, ...string[]], {
  error: (issue) =>
    issue.input === certificationEvent
      ? `${certificationEvent} is not a competition event: test results go to a test-result endpoint (dashboard, Webhooks → Test results).`
      : `Unknown event. Available: ${competitionEvents.join(", ")}.`,
});

/** A competition endpoint, registered through POST /api/v1/webhooks (API key or dashboard). */
export const createWebhookInput = z.object({
  url: webhookUrl,
  events: z
    .array(competitionEvent)
    .max(competitionEvents.length)
    .default([])
    .transform((events) => [...new Set(events)])
    .meta({ description: "Events to receive, a subset of `available_events`; empty (or absent) means all of them." }),
  secret: z
    .string()
    .min(16, "secret must be 16 to 128 characters.")
    .max(128, "secret must be 16 to 128 characters.")
    .optional()
    .meta({ description: "Signing secret (16–128 characters). Absent: one is generated (whsec_…) and returned once." }),
});
export type CreateWebhookInput = z.output<typeof createWebhookInput>;

export const webhookView = z
  .object({
    id: z.string().meta({ example: "wh_01JD6S1B9R8W6H3KX1ZJ0V5N2Q" }),
    url: z.string(),
    events: z.array(z.string()),
    created_at: z.string(),
  })
  .meta({ id: "Webhook" });
export type WebhookView = z.infer<typeof webhookView>;

export const createdWebhook = webhookView
  .extend({ secret: z.string().optional().meta({ description: "Present only when the service generated it: shown this once." }) })
  .meta({ id: "CreatedWebhook" });

export const webhookList = pageSchema(webhookView)
  .extend({
    available_events: z.array(z.string()).meta({ description: "The competition events an endpoint registered here can receive (the nine of the specification)." }),
    event_descriptions: z
      .record(z.string(), z.string())
      .meta({ description: "Not in the specification (additive): what each of `available_events` means, by name." }),
  })
  .meta({ id: "WebhookList" });

/** A test-result endpoint: only an address; the secret is always generated. */
export const createTestResultWebhookInput = z.object({ url: webhookUrl });
export type CreateTestResultWebhookInput = z.output<typeof createTestResultWebhookInput>;

export const createdTestResultWebhook = webhookView
  .extend({ secret: z.string().meta({ description: "The generated signing secret (`whsec_…`): shown this once." }) })
  .meta({ id: "CreatedTestResultWebhook" });

export const testResultWebhookList = pageSchema(webhookView).meta({ id: "TestResultWebhookList" });

export const attemptView = z.object({
  number: z.number().int(),
  state: z.enum(attemptStates).meta({
    description:
      "in_flight: being sent now; completed: the receiver's answer (or the network error) is recorded; interrupted: the worker stopped mid-attempt and no response was recorded (the attempt still counts).",
  }),
  ok: z.boolean(),
  status_code: z.number().int().nullable(),
  error: z.string().nullable(),
  response_excerpt: z.string(),
  duration_ms: z.number().int(),
  started_at: z.string(),
});

export const deliveryView = z.object({
  id: z.string(),
  event_id: z.string(),
  event: z.string(),
  status: z.enum(deliveryStatuses),
  attempts: z.array(attemptView),
  next_attempt_at: z.string().nullable(),
  created_at: z.string(),
  redelivery_of: z.string().nullable(),
});
export type DeliveryView = z.infer<typeof deliveryView>;
export const deliveryList = pageSchema(deliveryView).meta({ id: "DeliveryList" });
