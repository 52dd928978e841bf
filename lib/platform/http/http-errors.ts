import { ConfigError } from "@/lib/kernel/config/config";
import { AppError, type ErrorCode, type FieldError } from "@/lib/kernel/errors";
import { logError, logger } from "@/lib/kernel/log";
import { toAppError } from "@/lib/kernel/to-app-error";

/** The one mapping from error code to HTTP status. */
export const codeToStatus: Record<ErrorCode, number> = {
  invalid_json: 400,
  invalid_path: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  plan_limit_exceeded: 409,
  validation_failed: 422,
  payload_too_large: 413,
  rate_limit_exceeded: 429,
  service_unavailable: 503,
  // nginx's convention: the client went away before the answer; nobody reads this response.
  client_closed_request: 499,
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

/**
 * The one error response. Given the request, an error raised after its client went away
 * (reading the body of an aborted request) is answered 499 and logged without a stack.
 */
export function toErrorResponse(error: unknown, requestId: string, req?: Request): Response {
  const appError = req?.signal?.aborted ? new AppError("client_closed_request", "The client closed the request.") : toAppError(error);
  if (appError.code === "internal_error") logError("request", error, { request_id: requestId });
  if (error instanceof ConfigError) logger().error({ context: "config", request_id: requestId, problems: error.problems }, "invalid configuration");
  const body: ErrorBody = { error: { code: appError.code, message: appError.message, request_id: requestId } };
  if (appError.fields?.length) body.error.fields = appError.fields;
  const headers = new Headers();
  if (appError.retryAfter !== undefined) {
    body.error.retry_after = appError.retryAfter;
    headers.set("Retry-After", String(appError.retryAfter));
  }
  return Response.json(body, { status: codeToStatus[appError.code], headers });
}
