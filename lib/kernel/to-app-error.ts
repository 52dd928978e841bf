import { ZodError } from "zod";
import { isConnectionLost } from "@/db/availability";
import { errorCodes } from "@/db/error-codes";
import { ConfigError } from "./config/config";
import { AppError, type FieldError } from "./errors";
export function zodFields(error: ZodError): FieldError[] {
  return error.issues.map((issue) => ({
    field: issue.path.length ? issue.path.map(String).join(".") : "(body)",
    message: issue.message,
  }));
}

const UNAVAILABLE = "The service is temporarily unavailable. Try again in a few seconds.";

const MISCONFIGURED = "The server is misconfigured; its log names what to fix.";

const BUSY = "Too many changes to this workspace at the same moment. Try again in a few seconds.";

/** Normalises anything thrown into an AppError; unknown errors become internal_error. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  // The start refuses a bad configuration; one changed since (next dev, tests) is named in the log, not the response.
  if (error instanceof ConfigError) return new AppError("service_unavailable", MISCONFIGURED);
  if (error instanceof ZodError) {
    return new AppError("validation_failed", "Some fields must be corrected.", { fields: zodFields(error) });
  }
  const code = errorCodes(error)[0];
  if (code === "23505") {
    // Two requests raced to create the same thing: the loser is told, not given a 500.
    return new AppError("conflict", "This was changed by another request at the same time. Reload and try again.");
  }
  if (code === "40001" || code === "40P01" || code === "55P03") {
    // A serialization failure or deadlock that survived the bounded retries: the work was rolled back whole.
    return new AppError("service_unavailable", BUSY, { retryAfter: 1 });
  }
  if (code === "22021" || code === "22P05") {
    // Text PostgreSQL cannot store (NUL, unpaired surrogates) that slipped past the edge's checks.
    return new AppError("validation_failed", "A value contains characters that cannot be stored (NUL or an unpaired surrogate).");
  }
  if (isDatabaseUnavailable(error, code)) return new AppError("service_unavailable", UNAVAILABLE, { retryAfter: 5 });
  return new AppError("internal_error", "Something went wrong on our side.");
}

// Besides a lost connection (db/availability.ts): a server refusing new connections or
// cancelling a statement that ran past statement_timeout. The server is there, but the
// answer is the same: try again shortly.
const busyServerCodes = new Set([
  "57014", // query_canceled (statement_timeout)
  "53300", // too_many_connections
  "53400", // configuration_limit_exceeded
  "CONNECTION_ENDED", // the pool was closed (shutting down)
]);

function isDatabaseUnavailable(error: unknown, code: string | undefined): boolean {
  return isConnectionLost(error) || (code !== undefined && busyServerCodes.has(code));
}
