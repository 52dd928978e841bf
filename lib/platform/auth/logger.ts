import type { NextAuthConfig } from "next-auth";
import { describeError, logError, logger } from "@/lib/kernel/log";

/**
 * Auth.js's own logger prints an adapter error's stack (Drizzle's "Failed query: … params:
 * <addresses, token hashes>") and a JSON dump of the database error's fields (`detail`
 * quotes the values too). This one logs the Auth.js error type and a safe description of
 * the error underneath: its class, SQLSTATE, query text without values, stack frames.
 */
export const authLogger: NonNullable<NextAuthConfig["logger"]> = {
  error(error: Error) {
    const type = (error as { type?: unknown }).type;
    const underlying = (error.cause as { err?: unknown } | undefined)?.err;
    logError("auth", underlying ?? error, {
      auth_error: typeof type === "string" ? type : error.name,
      ...(underlying ? { auth_stack: describeError(error).stack } : {}),
    });
  },
  warn(code) {
    logger().warn({ context: "auth", code }, "auth warning");
  },
  // Debug output (off unless `debug: true`) would print adapter arguments: never.
  debug() {},
};
