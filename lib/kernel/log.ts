import pino from "pino";
import { config } from "@/lib/kernel/config/config";

/**
 * The one logger: pino, one JSON object per line on stdout, no transport (pino's transports
 * run in worker threads, which the Next.js server bundle cannot load; pino itself is one of
 * Next's default `serverExternalPackages`).
 *
 * Line format: `{"level":"info","time":"2026-…Z","pid":…,"hostname":…,"context":"request",…,"msg":"…"}`.
 * Ids go in snake_case fields (`request_id`, `delivery_id`, `message_id`, `step_id`), an
 * error in `err` as `describeError` gives it (class, code, SQL text without values, stack
 * frames — never the message, see lib/platform/http/request-log.ts).
 *
 * Redaction is a safety net, not the rule: callers log ids, not personal data. Any field
 * named below, at the top level or up to three levels down, is written as "[redacted]".
 */
const sensitiveKeys = [
  // secrets
  "secret",
  "password",
  "token",
  "api_key",
  "apiKey",
  "key_secret",
  "signing_key",
  "signingKey",
  "authorization",
  "cookie",
  "set-cookie",
  "x-api-key",
  "flag",
  "flags",
  "flag_hash",
  "sealed_flag",
  // personal data, and what carries it (addresses, names, capability links)
  "email",
  "emails",
  "to",
  "address",
  "addresses",
  "name",
  "link",
  "links",
  "url",
  "html",
  "text",
  "body",
];

const keyPath = (key: string) => (/^[A-Za-z_$][\w$]*$/.test(key) ? key : `["${key}"]`);
export const redactedPaths = sensitiveKeys.flatMap((key) => {
  const path = keyPath(key);
  const nested = path.startsWith("[") ? path : `.${path}`;
  return [path, `*${nested}`, `*.*${nested}`, `*.*.*${nested}`];
});

type Write = (line: string) => void;
const stdout: Write = (line) => void process.stdout.write(line);
let write: Write = stdout;

/**
 * Sends every log line to `target` instead of stdout (tests read what was logged);
 * `undefined` restores stdout.
 */
export function writeLogsTo(target: Write | undefined): void {
  write = target ?? stdout;
}

let instance: { level: string; logger: pino.Logger } | undefined;

/** The process's logger, at LOG_LEVEL. */
export function logger(): pino.Logger {
  const level = configuredLevel();
  if (instance?.level === level) return instance.logger;
  const created = pino(
    {
      level,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: redactedPaths, censor: "[redacted]" },
      // An Error passed as `err` is described, never serialised with its message.
      serializers: { err: (value: unknown) => (value instanceof Error ? describeError(value) : value) },
    },
    { write: (line: string) => write(line) },
  );
  instance = { level, logger: created };
  return created;
}

export type Logger = pino.Logger;

/** LOG_LEVEL, or "info" while the configuration is broken (the error saying so must still be logged). */
function configuredLevel(): string {
  try {
    return config().log.level;
  } catch {
    return "info";
  }
}

/** What an operator may read of an error: never parameter values, tokens or addresses. */
export type ErrorDescription = {
  error: string;
  /** SQLSTATE or Node error code. */
  code?: string;
  /** The SQL text with its placeholders ($1…): it names the query, never the values. */
  query?: string;
  /** Constraint, table or column the database named, where it did. */
  constraint?: string;
  table?: string;
  /** Stack frames only: the first line of a stack repeats the message, which may hold values. */
  stack?: string;
};

/**
 * A safe description of anything thrown. A Drizzle query error's message is
 * "Failed query: <sql>\nparams: <values>", and PostgreSQL messages quote input values
 * ("invalid input syntax for type integer: \"…\""), so neither message is logged: the
 * error's class, its code, the query text and the stack frames are enough to find the fault.
 */
export function describeError(error: unknown): ErrorDescription {
  const outer = error as { name?: unknown; code?: unknown; query?: unknown; cause?: unknown; stack?: unknown } | null;
  const cause = (outer?.cause ?? undefined) as { name?: unknown; code?: unknown; constraint_name?: unknown; table_name?: unknown; constraint?: unknown; table?: unknown } | undefined;
  const description: ErrorDescription = {
    error: typeof outer?.name === "string" ? outer.name : typeof error,
  };
  const code = [outer?.code, cause?.code].find((value) => typeof value === "string" || typeof value === "number");
  if (code !== undefined) description.code = String(code);
  if (typeof outer?.query === "string") description.query = outer.query.slice(0, 500);
  const constraint = cause?.constraint_name ?? cause?.constraint;
  if (typeof constraint === "string") description.constraint = constraint;
  const table = cause?.table_name ?? cause?.table;
  if (typeof table === "string") description.table = table;
  if (typeof outer?.stack === "string") {
    const frames = outer.stack
      .split("\n")
      .filter((line) => /^\s+at /.test(line))
      .slice(0, 12)
      .join("\n");
    if (frames) description.stack = frames;
  }
  return description;
}

/**
 * One JSON line for an error an operator should see, with the request (or delivery, message…)
 * id where there is one: `{"level":"error","context":…,"request_id":…,"err":{describeError},"msg":context}`.
 */
export function logError(context: string, error: unknown, extra: Record<string, unknown> = {}): void {
  logger().error({ context, ...extra, err: describeError(error) }, context);
}
