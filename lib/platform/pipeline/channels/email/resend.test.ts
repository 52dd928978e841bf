import { describe, expect, it } from "vitest";
import { classifyError, retryAfterMs } from "./resend";

describe("retryAfterMs (Resend's 429 headers)", () => {
  it("reads retry-after in seconds or as an HTTP date, and ratelimit-reset when the window is spent; the longer wins", () => {
    const now = Date.parse("2026-11-23T10:00:00Z");
    expect(retryAfterMs({ "retry-after": "2" })).toBe(2_000);
    expect(retryAfterMs({ "Retry-After": "Mon, 23 Nov 2026 10:00:05 GMT" }, now)).toBe(5_000);
    expect(retryAfterMs({ "retry-after": "1", "ratelimit-remaining": "0", "ratelimit-reset": "3" })).toBe(3_000);
    // Requests left in the window: the reset time is no reason to wait.
    expect(retryAfterMs({ "ratelimit-remaining": "1", "ratelimit-reset": "3" })).toBeNull();
    expect(retryAfterMs({ "retry-after": "soon" })).toBeNull();
    expect(retryAfterMs(null)).toBeNull();
  });
});

describe("classifyError", () => {
  const error = (statusCode: number | null, name: string) => ({ statusCode, name, message: "m" }) as Parameters<typeof classifyError>[0];

  it("sorts Resend's answers into rate-limited, transient and permanent", () => {
    expect(classifyError(error(429, "rate_limit_exceeded"), { "retry-after": "4" })).toMatchObject({ kind: "rate_limited", retryAfterMs: 4_000 });
    expect(classifyError(error(429, "rate_limit_exceeded"), null)).toMatchObject({ kind: "rate_limited", retryAfterMs: 1_000 });
    expect(classifyError(error(429, "daily_quota_exceeded"), { "retry-after": "4" })).toMatchObject({ kind: "transient" });
    for (const [status, name] of [
      [500, "internal_server_error"],
      [502, "application_error"],
      [408, "application_error"],
      [409, "concurrent_idempotent_requests"],
      [null, "application_error"],
    ] as const) {
      expect(classifyError(error(status, name), null), `${status} ${name}`).toMatchObject({ kind: "transient" });
    }
    for (const [status, name] of [
      [422, "validation_error"],
      [403, "validation_error"],
      [401, "missing_api_key"],
      [403, "invalid_api_key"],
      [409, "invalid_idempotent_request"],
      [400, "invalid_parameter"],
    ] as const) {
      expect(classifyError(error(status, name), null), `${status} ${name}`).toMatchObject({ kind: "permanent", reason: `${status} ${name}: m` });
    }
    expect(classifyError(error(500, "internal_server_error"), null, 400)).toEqual({ kind: "transient", reason: "timeout: no answer from Resend within 400 ms" });
  });
});
