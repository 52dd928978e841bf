import type { EmailTransport } from "@/db/schema";
import { config } from "@/lib/kernel/config/config";

/**
 * The e-mail settings, read from the one configuration (lib/kernel/config/config.ts: each variable, its
 * default and its range are defined and checked there).
 */

/** Resend when RESEND_API_KEY is set; otherwise the dev mailbox (nothing leaves the machine). */
export function emailTransport(): EmailTransport {
  return config().email.transport;
}

export function emailFrom(): string {
  return config().email.from;
}

/**
 * The dev mailbox page is served outside production, or in production only when the
 * operator opts in with DEV_MAILBOX=true (the e2e suite does, against the built app).
 */
export function devMailboxEnabled(): boolean {
  return config().email.devMailbox;
}

/**
 * Requests per second the app makes to Resend, all instances together (EMAIL_RATE_PER_SECOND,
 * default 2: Resend's default limit per API key). Every call first reserves a slot of
 * 1/rate seconds in `provider_pacing`.
 */
export function emailRatePerSecond(): number {
  return config().email.ratePerSecond;
}

/**
 * How long a message is retried after it was queued while the provider is slow, down or
 * rate-limiting (EMAIL_RETRY_HOURS, default 24, Resend's idempotency-key lifetime); after
 * that it is dropped with the last reason.
 */
export function emailRetryBudgetMs(): number {
  return config().email.retryBudgetMs;
}

/** The backoff after a transient failure: exponential from EMAIL_RETRY_BASE_MS (5 s) up to EMAIL_RETRY_MAX_MS (5 min). */
export function emailRetryBaseMs(): number {
  return config().email.retryBaseMs;
}

export function emailRetryMaxMs(): number {
  return config().email.retryMaxMs;
}

/** Deadline of one call to Resend (RESEND_TIMEOUT_MS, default 10 s); a call past it is a transient failure. */
export function resendTimeoutMs(): number {
  return config().email.resendTimeoutMs;
}
