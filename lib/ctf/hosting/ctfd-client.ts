import { HostError } from "./types";

export type CtfdConfig = { url: string; token: string; timeoutMs?: number };

/** One configured CTFd instance's REST API (`/api/v1`, `Authorization: Token …`). */
export type CtfdClient = {
  /** The instance's address, without a trailing slash. */
  base: string;
  /** The answer's `data`. */
  request<T>(method: string, path: string, body?: unknown): Promise<T>;
  call<T>(method: string, path: string, body?: unknown, options?: { missingIsNull?: boolean }): Promise<T>;
};

export function ctfdClient(config: CtfdConfig): CtfdClient {
  const base = config.url.replace(/\/+$/, "");

  async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
    return (await call<{ data?: T }>(method, path, body)).data as T;
  }

  /**
   * The whole answer (a paginated read's `meta` too); 404 → null when `missingIsNull`. A
   * `FormData` body is sent as `multipart/form-data` (fetch writes the boundary), anything
   * else as JSON. CTFd uses an API token only on those two types (3.6.0 and later for
   * multipart); it wants `application/json` even on a read without a body.
   */
  async function call<T>(method: string, path: string, body?: unknown, options: { missingIsNull?: boolean } = {}): Promise<T> {
    const multipart = body instanceof FormData;
    const send = () =>
      fetch(`${base}/api/v1${path}`, {
        method,
        headers: { Authorization: `Token ${config.token}`, ...(multipart ? {} : { "Content-Type": "application/json" }), Accept: "application/json" },
        body: multipart ? body : body === undefined ? undefined : JSON.stringify(body),
        redirect: "manual",
        signal: AbortSignal.timeout(config.timeoutMs ?? 10_000),
      });
    let response: Response;
    try {
      // A read is sent again once when the connection broke before an answer (a kept-alive
      // socket the server had closed): it changes nothing. A change is never sent twice.
      response = await send().catch((error: { cause?: { code?: string } }) => {
        if (method === "GET" && ["UND_ERR_SOCKET", "ECONNRESET", "EPIPE"].includes(error.cause?.code ?? "")) return send();
        throw error;
      });
    } catch (error) {
      // fetch says only "fetch failed"; its cause says why (ECONNREFUSED, a timeout…).
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new HostError(`CTFd is unreachable: ${(error as Error).message}${cause?.code || cause?.message ? ` (${cause.code ?? cause.message})` : ""}`);
    }
    const payload = (await response.json().catch(() => undefined)) as ({ success?: boolean; errors?: unknown } & T) | undefined;
    if (options.missingIsNull && response.status === 404) return null as T;
    if (!response.ok || !payload?.success) {
      throw new HostError(`CTFd answered ${response.status} to ${method} ${path}${payload?.errors ? `: ${JSON.stringify(payload.errors)}` : ""}`);
    }
    return payload;
  }

  return { base, request, call };
}
