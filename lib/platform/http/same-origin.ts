import { AppError } from "@/lib/kernel/errors";

/**
 * Whether a request comes from a page of this app: its `Origin` names the host it was sent
 * to. A missing, opaque (`null`, sent by sandboxed frames and some redirects) or unparseable
 * origin is not ours.
 */
export function isSameOrigin(headers: Headers): boolean {
  const origin = headers.get("origin");
  const host = headers.get("x-forwarded-host") ?? headers.get("host");
  if (!origin || !host || !URL.canParse(origin)) return false;
  const parsed = new URL(origin);
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return false;
  return parsed.host === host.split(",")[0].trim();
}

/** Refuses a state-changing request that another site's page could have made a browser send. */
export function requireSameOrigin(req: Request): void {
  if (req.method === "GET" || req.method === "HEAD") return;
  if (!isSameOrigin(req.headers)) throw new AppError("forbidden", "Cross-origin requests are not accepted here.");
}
