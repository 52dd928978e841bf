/** One line per API request. Never a key, secret or token: only the key's visible prefix. */
export function logRequest(entry: {
  method: string;
  /** The request URL; only its path is logged (never the query string, which may carry data). */
  url: string;
  status: number;
  durationMs: number;
  requestId: string;
  keyPrefix?: string;
}): void {
  if (process.env.API_LOG === "off") return;
  console.log(
    JSON.stringify({
      t: new Date().toISOString(),
      method: entry.method,
      path: safePath(entry.url),
      status: entry.status,
      ms: Math.round(entry.durationMs * 10) / 10,
      request_id: entry.requestId,
      key: entry.keyPrefix ?? null,
    }),
  );
}

function safePath(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return "(unparseable)";
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

/** One JSON line for an error an operator should see, with the request id where there is one. */
export function logError(context: string, error: unknown, extra: Record<string, unknown> = {}): void {
  console.error(JSON.stringify({ t: new Date().toISOString(), level: "error", context, ...extra, ...describeError(error) }));
}
