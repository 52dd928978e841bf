/**
 * The one error type of the domain. `lib/**` throws it with a code; the API layer maps the
 * code to an HTTP status in one place (`lib/platform/http/http-errors.ts`).
 */
export const errorCodes = [
  "invalid_json",
  "invalid_path",
  "unauthorized",
  "forbidden",
  "not_found",
  "method_not_allowed",
  "conflict",
  "plan_limit_exceeded",
  "validation_failed",
  "rate_limit_exceeded",
  "payload_too_large",
  "service_unavailable",
  "client_closed_request",
  "internal_error",
] as const;
export type ErrorCode = (typeof errorCodes)[number];

export type FieldError = { field: string; message: string };

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly fields?: FieldError[];
  /** Seconds to wait, for rate_limit_exceeded. */
  readonly retryAfter?: number;

  constructor(code: ErrorCode, message: string, extra: { fields?: FieldError[]; retryAfter?: number } = {}) {
    super(message);
    this.name = "AppError";
    this.code = code;
    this.fields = extra.fields;
    this.retryAfter = extra.retryAfter;
  }
}

export const notFound = (what: string) => new AppError("not_found", `${what} not found.`);
export const conflict = (message: string) => new AppError("conflict", message);
/** Where a trainer sees their plan, its usage and what a higher plan allows. */
export const PLAN_SETTINGS_PATH = "/settings";
/** The end of every plan-limit message; the dashboard shows it as a link to the settings page. */
export const PLAN_SETTINGS_HINT = `Your plan, its usage and what a higher plan allows: ${PLAN_SETTINGS_PATH} in the trainer area.`;
/** A plan's limit (seats, classes, students) reached: the message says which, and where the plans are compared. */
export const planLimit = (message: string) => new AppError("plan_limit_exceeded", `${message} ${PLAN_SETTINGS_HINT}`);
export const invalidFields = (fields: FieldError[], message = "Some fields must be corrected.") =>
  new AppError("validation_failed", message, { fields });
