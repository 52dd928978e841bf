/** Calls the dashboard's JSON routes; a non-2xx answer throws with the API's own message. */
export class RequestError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly fields: { field: string; message: string }[] = [],
  ) {
    super(message);
  }
}

export async function fetchJson<T>(url: string, init: RequestInit = {}): Promise<T> {
  // A FormData body (an upload) sets its own multipart Content-Type, with its boundary.
  const json = !(init.body instanceof FormData);
  const response = await fetch(url, {
    ...init,
    headers: { ...(json ? { "Content-Type": "application/json" } : {}), ...(init.headers ?? {}) },
  });
  const body = await response.json().catch(() => undefined);
  if (!response.ok) {
    const error = body?.error;
    throw new RequestError(error?.message ?? `Request failed (${response.status}).`, response.status, error?.fields);
  }
  return body as T;
}
