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
      path: new URL(entry.url).pathname,
      status: entry.status,
      ms: Math.round(entry.durationMs * 10) / 10,
      request_id: entry.requestId,
      key: entry.keyPrefix ?? null,
    }),
  );
}
