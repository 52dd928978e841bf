import { config } from "@/lib/kernel/config/config";
import { emailRetryBaseMs, emailRetryMaxMs } from "@/lib/kernel/config/email";

/**
 * The retry schedule, defined once for both executors: 3 attempts in all, linear backoff
 * (step, 2 × step), then dropped.
 */
export const MAX_ATTEMPTS = 3;
/** Retries after the first attempt, as Inngest counts them (a literal type it accepts). */
export const WEBHOOK_RETRIES = 2 as const satisfies number;

/** WEBHOOK_RETRY_STEP_MS (default 5 s). */
export function retryStepMs(): number {
  return config().webhooks.retryStepMs;
}

/** Delay before attempt `next` (2 or 3) after attempt `next - 1` failed. */
export function retryDelayMs(failedAttempt: number): number {
  return retryStepMs() * failedAttempt;
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
