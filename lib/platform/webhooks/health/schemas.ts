import { z } from "zod";

/** The window of the dashboard's figures. */
export const HEALTH_WINDOW_HOURS = 24;

export const endpointHealthView = z
  .object({
    endpoint_id: z.string(),
    attempts: z.number().int().meta({ description: `Attempts with an answer (or a network error) recorded in the last ${HEALTH_WINDOW_HOURS} hours.` }),
    succeeded: z.number().int().meta({ description: "Of those, the ones the receiver answered 2xx." }),
    success_rate: z.number().nullable().meta({ description: "succeeded / attempts, 0–1; null without an attempt in the window." }),
    p50_latency_ms: z
      .number()
      .int()
      .nullable()
      .meta({ description: "The median duration of those attempts (the receiver's answer time, or until the error), in ms; null without an attempt." }),
    failing_since: z.string().nullable().meta({ description: "When the current run of failed attempts began; null while the last attempt succeeded." }),
    health_mailed_at: z.string().nullable().meta({ description: "When the owner was last e-mailed about this endpoint (failing or disabled)." }),
  })
  .meta({ id: "WebhookEndpointHealth" });
export type EndpointHealthView = z.infer<typeof endpointHealthView>;

export const endpointHealthList = z
  .object({
    window_hours: z.literal(HEALTH_WINDOW_HOURS),
    data: z.array(endpointHealthView).meta({ description: "One entry per endpoint of the workspace, of both services." }),
  })
  .meta({ id: "WebhookEndpointHealthList" });
export type EndpointHealthList = z.infer<typeof endpointHealthList>;
