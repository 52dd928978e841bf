/**
 * The HTTP server `npm start` (scripts/serve.mjs) puts in front of Next.js: what `next start`
 * cannot be told to do. Plain JavaScript, run by `node` alone (a production install may omit
 * the devDependencies, tsx among them), so it cannot import lib/kernel/config/config.ts: the variables it
 * reads are parsed here by the same rules, and scripts/http-server.test.ts checks that both
 * parsers agree on every value.
 *
 * - Client addresses: `X-Forwarded-For` is rewritten from the connection before Next.js sees
 *   it (Next.js only fills it in when the request has none, so a client reaching the app
 *   directly would choose its own per-IP buckets). With TRUST_PROXY=0 it becomes the socket's
 *   address alone; with TRUST_PROXY=N the header as received, then the socket's address.
 *   lib/platform/ratelimit/client-ip.ts takes the entry N places left of the last one.
 * - Slow clients: a request's headers must arrive within HTTP_HEADERS_TIMEOUT_MS and the
 *   whole request within HTTP_REQUEST_TIMEOUT_MS (Node answers 408 and closes the socket);
 *   the timers are checked every second, not Node's 30 s. An idle keep-alive connection is
 *   kept 65 s, longer than the 60 s idle timeout of common load balancers.
 * - A method Next.js does not route (TRACE, PROPFIND…) under /api is answered 501 in the
 *   API's error shape; Next.js would answer an empty 400.
 */
import http from "node:http";
import { ulid } from "ulid";

/** An idle connection outlives a load balancer's (AWS ALB, nginx upstream keep-alive: 60 s). */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;
/** How often Node looks for requests past their headers or request timeout (its default: 30 s). */
export const TIMEOUT_CHECK_INTERVAL_MS = 1_000;

/** Each variable this server reads: its default and bounds, as lib/kernel/config/config.ts declares them. */
export const serverVariables = {
  HTTP_HEADERS_TIMEOUT_MS: { fallback: 20_000, min: 1_000, max: 600_000 },
  HTTP_REQUEST_TIMEOUT_MS: { fallback: 60_000, min: 1_000, max: 3_600_000 },
};

/** The methods Next.js routes to a route handler; any other is answered here, under /api. */
const ROUTED_METHODS = new Set(["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"]);

/** An empty or blank value counts as unset, as in lib/kernel/config/config.ts. */
const unset = (raw) => raw === undefined || raw.trim() === "";

/** TRUST_PROXY: lib/kernel/config/config.ts `trustProxySchema`. Returns the count, or throws with the message. */
export function parseTrustProxy(raw) {
  if (unset(raw)) return 0;
  const text = raw.trim();
  if (text === "false") return 0;
  if (text === "true") return 1;
  if (/^\d+$/.test(text) && Number(text) <= 10) return Number(text);
  throw new Error("TRUST_PROXY must be the number of reverse proxies in front of the app (0–10)");
}

/** A whole number of milliseconds in range: lib/kernel/config/config.ts `integer(…, "milliseconds")`. */
export function parseMilliseconds(name, raw) {
  const { fallback, min, max } = serverVariables[name];
  if (unset(raw)) return fallback;
  const text = raw.trim();
  const value = Number(text);
  if (!/^-?\d+$/.test(text) || value < min || value > max) {
    throw new Error(`${name} must be a whole number of milliseconds from ${min} to ${max}`);
  }
  return value;
}

/**
 * The server's settings from the environment, or an Error whose message lists every bad
 * variable (the wording of lib/kernel/config/config.ts, which checks them again at start).
 */
export function serverSettings(env) {
  const problems = [];
  const read = (parse) => {
    try {
      return parse();
    } catch (error) {
      problems.push(error.message);
      return undefined;
    }
  };
  const trustProxy = read(() => parseTrustProxy(env.TRUST_PROXY));
  const headersTimeoutMs = read(() => parseMilliseconds("HTTP_HEADERS_TIMEOUT_MS", env.HTTP_HEADERS_TIMEOUT_MS));
  const requestTimeoutMs = read(() => parseMilliseconds("HTTP_REQUEST_TIMEOUT_MS", env.HTTP_REQUEST_TIMEOUT_MS));
  if (headersTimeoutMs !== undefined && requestTimeoutMs !== undefined && headersTimeoutMs > requestTimeoutMs) {
    // Node refuses a headers timeout longer than the request's.
    problems.push("HTTP_REQUEST_TIMEOUT_MS must be at least HTTP_HEADERS_TIMEOUT_MS");
  }
  if (problems.length > 0) {
    throw new Error(`Invalid configuration (${problems.length} problem${problems.length === 1 ? "" : "s"}); fix the environment and start again:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
  }
  return { trustProxy, headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs: KEEP_ALIVE_TIMEOUT_MS };
}

/**
 * The `X-Forwarded-For` Next.js is handed: the socket's address alone with no trusted proxy,
 * else the header as received followed by the socket's address. Undefined (no header at
 * all: the request counts as from an unknown client) when the socket's address is unknown,
 * the connection being already gone.
 */
export function forwardedFor(received, socketAddress, trustProxy) {
  if (!socketAddress) return undefined;
  if (trustProxy === 0) return socketAddress;
  const before = joined(received);
  return before ? `${before}, ${socketAddress}` : socketAddress;
}

function joined(value) {
  const text = (Array.isArray(value) ? value.join(", ") : (value ?? "")).trim();
  return text || undefined;
}

const isApiPath = (url) => /^\/api(?:[/?#]|$)/.test(url ?? "");

/** The API's error shape (lib/platform/http/http-errors.ts) for a method no route handler can serve. */
function answerUnroutedMethod(req, res) {
  const requestId = `req_${ulid()}`;
  const body = JSON.stringify({ error: { code: "not_implemented", message: `The method ${req.method} is not supported.`, request_id: requestId } });
  res.writeHead(501, {
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(body),
    "X-Request-Id": requestId,
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "frame-ancestors 'none'",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    // Every /api/v1 answer carries the rate-limit headers; nothing was counted (lib/platform/http/answer-headers.ts).
    ...(/^\/api\/v1(?:[/?#]|$)/.test(req.url ?? "") ? { "X-RateLimit-Limit": "120", "X-RateLimit-Remaining": "120", "X-RateLimit-Reset": String(Math.ceil(Date.now() / 1000)) } : {}),
  });
  res.end(req.method === "HEAD" ? undefined : body);
}

/**
 * The HTTP server with these settings, handing each request to `handler` (Next.js's request
 * handler) once its client address is settled. Not yet listening.
 */
export function createAppServer(settings, handler) {
  const server = http.createServer(
    {
      headersTimeout: settings.headersTimeoutMs,
      requestTimeout: settings.requestTimeoutMs,
      connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS,
    },
    async (req, res) => {
      const forwarded = forwardedFor(req.headers["x-forwarded-for"], req.socket.remoteAddress, settings.trustProxy);
      if (forwarded === undefined) delete req.headers["x-forwarded-for"];
      else req.headers["x-forwarded-for"] = forwarded;
      if (!ROUTED_METHODS.has(req.method) && isApiPath(req.url)) return answerUnroutedMethod(req, res);
      try {
        await handler(req, res);
      } catch (error) {
        // As `next start` does: Next.js answers its own errors; this is for one it could not.
        console.error(`Failed to handle request for ${req.url}`, error);
        if (!res.headersSent) res.statusCode = 500;
        res.end();
      }
    },
  );
  server.keepAliveTimeout = settings.keepAliveTimeoutMs;
  return server;
}
