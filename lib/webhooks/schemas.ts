import { z } from "zod";
import { attemptStates, deliveryStatuses } from "@/db/schema/statuses";
import { pageSchema } from "@/lib/api/paging";
import { availableEvents } from "@/lib/events/catalog";

export const MAX_ENDPOINTS_PER_WORKSPACE = 20;

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

export const createWebhookInput = z.object({
  url: webhookUrl,
  events: z
    .array(z.enum(availableEvents as [string, ...string[]], { message: `Unknown event. Available: ${availableEvents.join(", ")}.` }))
    .max(availableEvents.length)
    .default([])
    .transform((events) => [...new Set(events)])
    .meta({ description: "Events to receive; empty (or absent) means every event." }),
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
    available_events: z.array(z.string()).meta({ description: "Every event the platform emits." }),
    event_descriptions: z
      .record(z.string(), z.string())
      .meta({ description: "Not in the specification (additive): what each of `available_events` means, by name." }),
  })
  .meta({ id: "WebhookList" });

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
