import { setRateHeaders, uncountedRate } from "@/lib/platform/ratelimit";

/**
 * The headers every API answer carries, for one no endpoint made: its request id, no caching,
 * and under /api/v1 the rate-limit headers (no key was looked at, so nothing was counted).
 */
export function setAnswerHeaders(headers: Headers, pathname: string, requestId: string): void {
  headers.set("X-Request-Id", requestId);
  headers.set("Cache-Control", "no-store");
  if (/^\/api\/v1(?:\/|$)/.test(pathname)) setRateHeaders(headers, uncountedRate());
}
