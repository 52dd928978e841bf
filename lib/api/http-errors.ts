import { ZodError } from "zod";
import { AppError, type ErrorCode, type FieldError } from "@/lib/errors";

/** The one mapping from error code to HTTP status. */
export const codeToStatus: Record<ErrorCode, number> = {
  invalid_json: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  plan_limit_exceeded: 409,
  validation_failed: 422,
  payload_too_large: 413,
  rate_limit_exceeded: 429,
  service_unavailable: 503,
  internal_error: 500,
};

export type ErrorBody = {
  error: {
    code: ErrorCode;
    message: string;
    request_id: string;
    fields?: FieldError[];
    retry_after?: number;
  };
};

export function zodFields(error: ZodError): FieldError[] {
  return error.issues.map((issue) => ({
    field: issue.path.length ? issue.path.map(String).join(".") : "(body)",
    message: issue.message,
  }));
}

/** Normalises anything thrown into an AppError; unknown errors become internal_error. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof ZodError) {
    return new AppError("validation_failed", "Some fields must be corrected.", { fields: zodFields(error) });
  }
  if (databaseCode(error) === "23505") {
    // Two requests raced to create the same thing: the loser is told, not given a 500.
    return new AppError("conflict", "This was changed by another request at the same time. Reload and try again.");
  }
  if (isDatabaseUnavailable(error)) {
    return new AppError("service_unavailable", "The service is temporarily unavailable. Try again shortly.");
  }
  return new AppError("internal_error", "Something went wrong on our side.");
}

/** The SQLSTATE of a database error, also when Drizzle wraps it ("Failed query: …"). */
function databaseCode(error: unknown): string | undefined {
  const candidate = error as { code?: unknown; cause?: { code?: unknown } };
  const code = candidate?.code ?? candidate?.cause?.code;
  return typeof code === "string" ? code : undefined;
}

function isDatabaseUnavailable(error: unknown): boolean {
  const code = (error as { code?: string })?.code;
  return code === "ECONNREFUSED" || code === "CONNECTION_ENDED" || code === "CONNECT_TIMEOUT" || code === "57P01";
}

export function toErrorResponse(error: unknown, requestId: string): Response {
  const appError = toAppError(error);
  if (appError.code === "internal_error") {
    console.error(JSON.stringify({ level: "error", request_id: requestId, error: String((error as Error)?.stack ?? error) }));
  }
  const body: ErrorBody = { error: { code: appError.code, message: appError.message, request_id: requestId } };
  if (appError.fields?.length) body.error.fields = appError.fields;
  const headers = new Headers();
  if (appError.retryAfter !== undefined) {
    body.error.retry_after = appError.retryAfter;
    headers.set("Retry-After", String(appError.retryAfter));
  }
  return Response.json(body, { status: codeToStatus[appError.code], headers });
}
