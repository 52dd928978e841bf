import type { WebhookService } from "@/db/schema";
import { config } from "@/lib/kernel/config/config";
import { emailRetryBaseMs, emailRetryMaxMs } from "@/lib/kernel/config/email";

/**
 * The retry schedules, defined once for both executors.
 *
 * - Competition endpoints and scheduled steps: the competition specification's 3 attempts in
 *   all, linear backoff (step, 2 × step), then dropped.
 * - Test-result (certification) endpoints: the certification specification says nothing of
 *   retries, so an LMS that is down for a while must not lose a result: Standard Webhooks'
 *   schedule (immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: 8 attempts over about
 *   27 h), or TEST_RESULT_RETRY_SCHEDULE; then dropped.
 */
export const MAX_ATTEMPTS = 3;
/** Retries after the first attempt, as Inngest counts them (a literal type it accepts). */
export const WEBHOOK_RETRIES = 2 as const satisfies number;

/** WEBHOOK_RETRY_STEP_MS (default 5 s). */
export function retryStepMs(): number {
  return config().webhooks.retryStepMs;
}

/** Delay before attempt `next` (2 or 3) after attempt `next - 1` failed (competition deliveries, steps). */
export function retryDelayMs(failedAttempt: number): number {
  return retryStepMs() * failedAttempt;
}

/** The delays between the attempts of a delivery to an endpoint of `service`, in ms. */
export function deliveryRetryDelays(service: WebhookService): readonly number[] {
  if (service === "certification") return config().webhooks.testResultRetryDelaysMs;
  return Array.from({ length: MAX_ATTEMPTS - 1 }, (_, i) => retryDelayMs(i + 1));
}

/** Attempts in all of a delivery to an endpoint of `service`; then it is dropped. */
export function deliveryMaxAttempts(service: WebhookService): number {
  return deliveryRetryDelays(service).length + 1;
}

/** Delay before the attempt after `failedAttempt` of a delivery to an endpoint of `service`. */
export function deliveryRetryDelayMs(service: WebhookService, failedAttempt: number): number {
  const delays = deliveryRetryDelays(service);
  return delays[Math.min(Math.max(failedAttempt, 1), delays.length) - 1] ?? 0;
}

/** What Inngest accepts as a function's retries. */
type InngestRetries = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12 | 13 | 14 | 15 | 16 | 17 | 18 | 19 | 20;

/**
 * Retries of one Inngest run of the deliver-webhook function: enough for the longer of the two
 * schedules (each run makes one attempt; the delivery's own count decides when it is dropped,
 * and a competition delivery is dropped after its third). The configuration keeps the
 * test-result schedule within Inngest's 20 retries.
 */
export function webhookRunRetries(): InngestRetries {
  return Math.min(20, Math.max(deliveryMaxAttempts("certification"), deliveryMaxAttempts("competition")) - 1) as InngestRetries;
}

/** How long a worker holds a claimed row (WORKER_LEASE_MS, default 30 s, at least 10 s); longer than any single attempt can take. */
export function leaseMs(): number {
  return config().worker.leaseMs;
}

/**
 * E-mail is not given a number of tries but a time (lib/kernel/config/email.ts, EMAIL_RETRY_HOURS,
 * default 24 h after it was queued): a provider that is slow or down for an hour must not
 * lose an invitation. Transient failures back off exponentially with jitter, from
 * EMAIL_RETRY_BASE_MS (5 s) up to EMAIL_RETRY_MAX_MS (5 min); a 429 waits what the provider
 * asks (Retry-After) and is not counted as a try.
 */
export function emailRetryDelayMs(failedAttempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(emailRetryMaxMs(), emailRetryBaseMs() * 2 ** Math.min(Math.max(failedAttempt - 1, 0), 30));
  // "Equal jitter": at least half the step, so retries of many batches spread out but never bunch at 0.
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/**
 * Retries of one Inngest run of the send-email function (Inngest allows at most 20). The
 * budget itself is time-based and kept by `deliverEmails`, which returns `retryAfterMs`
 * (kept for lib/platform/pipeline/executors/inngest.ts; not a budget any more).
 */
export const EMAIL_RETRIES = 7 as const satisfies number;
