/**
 * Whether this process can currently reach its database: set when a request or the start-up
 * meets a lost connection, cleared by a probe (see `reportDatabaseError` in ./index.ts).
 * proxy.ts reads it to answer pages 503 at once during an outage, without waiting on the
 * database. It lives on globalThis because the proxy is bundled apart from the app and
 * shares only the process. It imports nothing but ./error-codes: the proxy bundle must
 * stay free of drivers.
 */
import { errorCodes } from "./error-codes";

type Availability = { down: boolean; since: number };

const state = ((globalThis as { __certifyDbAvailability?: Availability }).__certifyDbAvailability ??= { down: false, since: 0 });

export function databaseKnownDown(): boolean {
  return state.down;
}

/** Returns true when this call changed the state (the caller starts the probe). */
export function markDatabaseDown(): boolean {
  if (state.down) return false;
  state.down = true;
  state.since = Date.now();
  return true;
}

export function markDatabaseUp(): void {
  state.down = false;
}

// What postgres.js and Node report when the server cannot be reached or dropped the
// connection: the server is gone, not a statement that failed. A statement timeout (57014)
// or "too many connections" (53300) are answered 503 too, but the server is there: they do
// not switch the whole process to "down".
const lostConnectionCodes = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "CONNECT_TIMEOUT",
  "CONNECTION_CLOSED",
  "CONNECTION_DESTROYED",
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now (shutting down, starting up)
]);

/** True when `error` (or a cause it wraps, as Drizzle does) says the database connection is lost. */
export function isConnectionLost(error: unknown): boolean {
  return errorCodes(error).some((code) => lostConnectionCodes.has(code) || code.startsWith("08"));
}
