type Handler = (req: Request, context: any) => Promise<Response>;

export type CallOptions = {
  method?: string;
  key?: string;
  /** Use Authorization: Bearer instead of X-API-KEY. */
  bearer?: boolean;
  params?: Record<string, string>;
  query?: Record<string, string | number>;
  /** An object is sent as JSON; a string is sent as it is (malformed JSON tests); a FormData as multipart/form-data. */
  body?: unknown;
  headers?: Record<string, string>;
};

export type CallResult<T = any> = { status: number; headers: Headers; body: T };

/** Calls a real route handler with a real Request, as Next.js would. */
export async function call<T = any>(handler: Handler, path: string, options: CallOptions = {}): Promise<CallResult<T>> {
  const url = new URL(`http://localhost${path}`);
  for (const [name, value] of Object.entries(options.query ?? {})) url.searchParams.set(name, String(value));
  const headers = new Headers(options.headers);
  if (options.key) {
    if (options.bearer) headers.set("authorization", `Bearer ${options.key}`);
    else headers.set("x-api-key", options.key);
  }
  let body: string | FormData | undefined;
  if (options.body instanceof FormData) {
    // multipart/form-data: the Request sets the content type with its boundary.
    body = options.body;
  } else if (options.body !== undefined) {
    body = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
    headers.set("content-type", "application/json");
  }
  const response = await handler(new Request(url, { method: options.method ?? "GET", headers, body }), {
    params: Promise.resolve(options.params ?? {}),
  });
  const text = await response.text();
  const json = (response.headers.get("content-type") ?? "").includes("json");
  return { status: response.status, headers: response.headers, body: text ? (json ? JSON.parse(text) : text) : undefined };
}
