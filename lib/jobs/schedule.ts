/**
 * The retry schedule, defined once for both executors: 3 attempts in all, linear backoff
 * (step, 2 × step), then dropped.
 */
export const MAX_ATTEMPTS = 3;
/** Retries after the first attempt, as Inngest counts them (a literal type it accepts). */
export const WEBHOOK_RETRIES = 2 as const satisfies number;

export function retryStepMs(): number {
  const configured = Number(process.env.WEBHOOK_RETRY_STEP_MS);
  return Number.isFinite(configured) && configured >= 0 ? configured : 5_000;
}

/** Delay before attempt `next` (2 or 3) after attempt `next - 1` failed. */
export function retryDelayMs(failedAttempt: number): number {
  return retryStepMs() * failedAttempt;
}

/** How long a worker holds a claimed row; longer than any single attempt can take. */
export function leaseMs(): number {
  const configured = Number(process.env.WORKER_LEASE_MS);
  return Number.isFinite(configured) && configured >= 10_000 ? configured : 30_000;
}

/**
 * E-mail is retried longer than webhooks (a provider outage should not lose a sign-in or
 * an invitation): 8 tries, the same linear step.
 */
export const EMAIL_MAX_ATTEMPTS = 8;
export const EMAIL_RETRIES = 7 as const satisfies number;

export function emailRetryDelayMs(failedAttempt: number): number {
  return Math.max(1_000, retryStepMs()) * failedAttempt;
}

