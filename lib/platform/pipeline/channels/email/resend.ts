import { Resend, type ErrorResponse } from "resend";
import type { EmailMessage } from "@/db/schema";
import { config } from "@/lib/kernel/config/config";
import { resendTimeoutMs } from "@/lib/kernel/config/email";

const RESEND_API = "https://api.resend.com";
let client: { key: string; baseUrl: string; sdk: Resend } | undefined;

/**
 * The real Resend SDK, with the key and base URL of the configuration (RESEND_BASE_URL
 * points it at a local fake in tests); made again when either changes.
 */
export function resend(): Resend {
  const { resendApiKey, resendBaseUrl } = config().email;
  const key = resendApiKey ?? "";
  const baseUrl = resendBaseUrl ?? RESEND_API;
  if (client?.key !== key || client.baseUrl !== baseUrl) client = { key, baseUrl, sdk: new Resend(key, { baseUrl }) };
  return client.sdk;
}

/** What one call to Resend came to, in the terms the outbox acts on. */
export type ResendOutcome =
  /** Accepted; `ids[i]` is message i's provider id (null for one refused by permissive validation, listed in `refused`). */
  | { kind: "accepted"; ids: (string | null)[]; refused: { index: number; reason: string }[] }
  /** 429: nothing sent; the key's pace must wait `retryAfterMs`. Not a try that counts. */
  | { kind: "rate_limited"; retryAfterMs: number; reason: string }
  /** 5xx, a network error, a timeout, a concurrent use of the key: try again later, same key. */
  | { kind: "transient"; reason: string }
  /** A 4xx that cannot succeed however often it is sent (invalid address, unverified domain, bad key). */
  | { kind: "permanent"; reason: string };

/** A 429 with no usable header waits this long. */
const DEFAULT_RATE_LIMIT_WAIT_MS = 1_000;

/**
 * Sends one message (`POST /emails`) or a batch of up to 100 (`POST /emails/batch`, permissive
 * validation: an invalid address is refused alone, the others are sent) under the
 * idempotency key `key`, with a deadline (RESEND_TIMEOUT_MS), and classifies the answer.
 */
export async function sendToResend(messages: EmailMessage[], key: string): Promise<ResendOutcome> {
  const timeoutMs = resendTimeoutMs();
  const signal = AbortSignal.timeout(timeoutMs);
  const payload = (message: EmailMessage) => ({ from: message.from, to: message.to, subject: message.subject, html: message.html, text: message.text });
  try {
    if (messages.length === 1) {
      const { data, error, headers } = await resend().emails.send(payload(messages[0]), { idempotencyKey: key, signal });
      if (error) return classifyError(error, headers, signal.aborted ? timeoutMs : null);
      return { kind: "accepted", ids: [data?.id ?? null], refused: [] };
    }
    const { data, error, headers } = await resend().batch.send(messages.map(payload), { idempotencyKey: key, batchValidation: "permissive", signal });
    if (error) return classifyError(error, headers, signal.aborted ? timeoutMs : null);
    return acceptedBatch(messages.length, data?.data ?? [], data?.errors ?? []);
  } catch (error) {
    if (signal.aborted) return { kind: "transient", reason: `timeout: no answer from Resend within ${timeoutMs} ms` };
    return { kind: "transient", reason: `network: ${(error as Error).message}` };
  }
}

/**
 * Permissive validation answers the accepted messages' ids in order (`data`) and the refused
 * ones by index (`errors`): the ids belong, in order, to the indexes not refused.
 */
function acceptedBatch(size: number, data: { id: string }[], errors: { index: number; message: string }[]): ResendOutcome {
  const refusedAt = new Map(errors.filter((e) => Number.isInteger(e.index) && e.index >= 0 && e.index < size).map((e) => [e.index, e.message]));
  const ids: (string | null)[] = Array(size).fill(null);
  if (data.length === size) data.forEach((entry, index) => (ids[index] = refusedAt.has(index) ? null : entry.id));
  else {
    let next = 0;
    for (let index = 0; index < size; index++) if (!refusedAt.has(index)) ids[index] = data[next++]?.id ?? null;
  }
  return { kind: "accepted", ids, refused: [...refusedAt].map(([index, reason]) => ({ index, reason: `validation_error: ${reason}` })) };
}

export function classifyError(error: ErrorResponse, headers: Record<string, string> | null, timedOutAfterMs: number | null = null): ResendOutcome {
  if (timedOutAfterMs !== null) return { kind: "transient", reason: `timeout: no answer from Resend within ${timedOutAfterMs} ms` };
  const status = typeof error.statusCode === "number" ? error.statusCode : null;
  const reason = `${status ?? "no status"} ${error.name}: ${error.message}`.slice(0, 500);
  if (status === 429 || (status === null && error.name === "rate_limit_exceeded")) {
    // A spent daily or monthly quota is not a pace to keep: back off like an outage.
    if (error.name === "daily_quota_exceeded" || error.name === "monthly_quota_exceeded") return { kind: "transient", reason };
    return { kind: "rate_limited", retryAfterMs: retryAfterMs(headers) ?? DEFAULT_RATE_LIMIT_WAIT_MS, reason };
  }
  // No status: the SDK could not reach Resend or read its answer (network, DNS, reset).
  if (status === null) return error.name === "application_error" || error.name === "internal_server_error" ? { kind: "transient", reason } : { kind: "permanent", reason };
  if (status >= 500 || status === 408) return { kind: "transient", reason };
  // Another request with this key is still being processed (our own retry raced it): ask again later.
  if (status === 409 && error.name === "concurrent_idempotent_requests") return { kind: "transient", reason };
  return { kind: "permanent", reason };
}

/**
 * How long Resend asks us to wait: `retry-after` (seconds or an HTTP date) and, when the
 * window is spent (`ratelimit-remaining: 0`), `ratelimit-reset` (seconds); the longer wins.
 */
export function retryAfterMs(headers: Record<string, string> | null, now = Date.now()): number | null {
  if (!headers) return null;
  const get = (name: string) => Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  const waits: number[] = [];
  const retryAfter = get("retry-after");
  if (retryAfter !== undefined) {
    const seconds = Number(retryAfter);
    if (retryAfter.trim() !== "" && Number.isFinite(seconds) && seconds >= 0) waits.push(seconds * 1000);
    else if (!Number.isNaN(Date.parse(retryAfter))) waits.push(Math.max(0, Date.parse(retryAfter) - now));
  }
  const reset = Number(get("ratelimit-reset"));
  if (get("ratelimit-remaining") === "0" && Number.isFinite(reset) && reset >= 0) waits.push(reset * 1000);
  return waits.length ? Math.max(...waits) : null;
}
