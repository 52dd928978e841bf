import { z } from "zod";
import { attemptStates, deliveryStatuses } from "@/db/schema/statuses";
import { isoDateTime } from "@/lib/kernel/fields";
import { pageSchema, pagingQuery } from "@/lib/kernel/paging";
import { certificationEvent, competitionEvents } from "@/lib/platform/pipeline/channels/webhook/events";
import { deliveryAbout } from "./subjects";

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

const competitionEventList = z
  .array(competitionEvent)
  .max(competitionEvents.length)
  .transform((events) => [...new Set(events)]);

const chosenSecret = z.string().min(16, "secret must be 16 to 128 characters.").max(128, "secret must be 16 to 128 characters.");

/** A competition endpoint, registered through POST /api/v1/webhooks (API key or dashboard). */
export const createWebhookInput = z.object({
  url: webhookUrl,
  events: competitionEventList
    .default([])
    .meta({ description: "Events to receive, a subset of `available_events`; empty (or absent) means all of them." }),
  secret: chosenSecret.optional().meta({ description: "Signing secret (16–128 characters). Absent: one is generated (whsec_…) and returned once." }),
});
export type CreateWebhookInput = z.output<typeof createWebhookInput>;

export const webhookView = z
  .object({
    id: z.string().meta({ example: "wh_01JD6S1B9R8W6H3KX1ZJ0V5N2Q" }),
    url: z.string(),
    events: z.array(z.string()),
    created_at: z.string(),
    enabled: z.boolean().meta({ description: "False: the endpoint receives nothing; each event meanwhile is recorded as a `not_sent` delivery." }),
    disabled_at: z.string().nullable(),
    disabled_reason: z
      .enum(["manual", "failing"])
      .nullable()
      .meta({ description: "Who disabled it: its owner (`manual`) or the service after days of nothing but failures (`failing`)." }),
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
/**
 * A field a test-result endpoint does not take is refused rather than dropped: an integrator who
 * sends a `secret` or `events` (as the competition surface takes them) learns it did nothing.
 */
const notForTestResults = (why: string) => z.unknown().refine((value) => value === undefined, why).optional().meta({ description: why });
const secretNotTaken = notForTestResults("Test-result endpoints get a generated whsec_ secret, shown once; to choose one, POST …/rotate-secret with { secret }.");
const eventsNotTaken = notForTestResults("Test-result endpoints receive test.completed only: there are no events to choose.");

export const createTestResultWebhookInput = z.object({ url: webhookUrl, secret: secretNotTaken, events: eventsNotTaken });
export type CreateTestResultWebhookInput = z.output<typeof createTestResultWebhookInput>;

export const createdTestResultWebhook = webhookView
  .extend({ secret: z.string().meta({ description: "The generated signing secret (`whsec_…`): shown this once." }) })
  .meta({ id: "CreatedTestResultWebhook" });

export const testResultWebhookList = pageSchema(webhookView).meta({ id: "TestResultWebhookList" });

/** PATCH of a competition endpoint: what is given changes, what is absent stays. */
export const updateWebhookInput = z.object({
  url: webhookUrl.optional(),
  events: competitionEventList.optional().meta({ description: "Events to receive, a subset of `available_events`; empty means all of them." }),
  enabled: z.boolean().optional().meta({ description: "False: nothing is sent (events are recorded as `not_sent`); true: delivery resumes." }),
});
export type UpdateWebhookInput = z.output<typeof updateWebhookInput>;

/** PATCH of a test-result endpoint: its address and whether it receives anything. */
export const updateTestResultWebhookInput = updateWebhookInput.pick({ url: true, enabled: true }).extend({ events: eventsNotTaken });

/** A new signing secret: the caller's own, or absent to have one generated. */
export const rotateSecretInput = z
  .object({ secret: chosenSecret.optional().meta({ description: "The new signing secret (16–128 characters). Absent: one is generated (whsec_…)." }) });

export const rotatedSecret = z
  .object({
    id: z.string(),
    secret: z.string().meta({ description: "The new signing secret: shown this once." }),
    previous_secret_expires_at: z.string().meta({ description: "Until then the previous secret signs every delivery too (24 hours)." }),
  })
  .meta({ id: "RotatedWebhookSecret" });

/** How far back `recover` reaches (days). */
export const RECOVER_RETENTION_DAYS = 14;

export const recoverInput = z.object({
  since: isoDateTime("since")
    .refine((since) => since.getTime() <= Date.now(), "since must not be in the future.")
    .refine(
      (since) => since.getTime() >= Date.now() - RECOVER_RETENTION_DAYS * 86_400_000,
      `since must be within the last ${RECOVER_RETENTION_DAYS} days.`,
    )
    .meta({ description: `Deliveries created at or after this instant (at most ${RECOVER_RETENTION_DAYS} days ago, not in the future).` }),
});

export const recovered = z.object({ queued: z.number().int().meta({ description: "Deliveries queued again (one per missed event)." }) });

export const deliveryQuery = pagingQuery.extend({
  status: z.enum(deliveryStatuses, { error: `status must be one of ${deliveryStatuses.join(", ")}.` }).optional(),
  event: z.string().max(100).optional().meta({ description: "An event name, e.g. `ctf.deployed`." }),
  since: isoDateTime("since")
    .optional()
    .meta({ description: "Deliveries created at or after this instant." }),
});
export type DeliveryQuery = z.output<typeof deliveryQuery>;

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

/** A real event's delivery, or one of a sample sent to try an endpoint. */
export const deliveryKinds = ["event", "test_event"] as const;

export const deliveryView = z.object({
  id: z.string(),
  event_id: z.string(),
  event: z.string(),
  status: z.enum(deliveryStatuses),
  attempts: z.array(attemptView),
  next_attempt_at: z.string().nullable(),
  created_at: z.string(),
  redelivery_of: z.string().nullable(),
  about: deliveryAbout.meta({ description: "Not in the specification (additive): which test and recipient, or which competition object, the event was about; whether it was a sample." }),
  kind: z.enum(deliveryKinds).meta({
    description: "Not in the specification (additive): `test_event` for a sample sent with \"Send test event\" (its data is made up: not a real result), `event` otherwise.",
  }),
});
export type DeliveryView = z.infer<typeof deliveryView>;
export const deliveryList = pageSchema(deliveryView).meta({ id: "DeliveryList" });
