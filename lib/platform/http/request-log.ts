import { config } from "@/lib/kernel/config/config";
import { logger } from "@/lib/kernel/log";

// The rule for errors (class, code, SQL text, stack frames; never the message) lives with the
// logger, which applies it to every `err` it is given.

/**
 * One line per API request (pino, see lib/kernel/log.ts). Never a key, secret or token: only the
 * key's visible prefix. API_LOG=off silences it (LOG_LEVEL silences every log).
 */
export function logRequest(entry: {
  method: string;
  /** The request URL; only its path is logged (never the query string, which may carry data). */
  url: string;
  status: number;
  durationMs: number;
  requestId: string;
  keyPrefix?: string;
  /** Who called: key, session, recipient, player or public. */
  caller?: string;
}): void {
  if (!config().log.requests) return;
  logger().info(
    {
      context: "request",
      method: entry.method,
      path: safePath(entry.url),
      status: entry.status,
      ms: Math.round(entry.durationMs * 10) / 10,
      request_id: entry.requestId,
      key: entry.keyPrefix ?? null,
      ...(entry.caller ? { caller: entry.caller } : {}),
    },
    "request",
  );
}

function safePath(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return "(unparseable)";
  }
}

