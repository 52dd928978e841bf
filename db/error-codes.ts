/**
 * Every code an error carries, outermost first: its own, then those of the causes it wraps
 * (Drizzle wraps the driver's error as `cause`) and of the errors an AggregateError holds
 * (Node's happy-eyeballs connect to a host with several addresses). Codes are SQLSTATEs
 * ("40P01") or driver and socket codes ("ECONNREFUSED", "CONNECT_TIMEOUT"). No imports:
 * proxy.ts's bundle uses it too.
 */
export function errorCodes(error: unknown, depth = 0): string[] {
  if (!error || typeof error !== "object" || depth >= 5) return [];
  const { code, errors, cause } = error as { code?: unknown; errors?: unknown; cause?: unknown };
  return [
    ...(typeof code === "string" ? [code] : []),
    ...(Array.isArray(errors) ? errors.flatMap((inner) => errorCodes(inner, depth + 1)) : []),
    ...errorCodes(cause, depth + 1),
  ];
}
