import { AppError } from "@/lib/kernel/errors";
import { newId } from "@/lib/kernel/ids";
import { setAnswerHeaders } from "./answer-headers";
import { toErrorResponse } from "./http-errors";
import { logRequest } from "./request-log";

/**
 * Answers under /api for requests no endpoint serves, in the one error shape, so that every
 * answer under /api is JSON (Next.js would send its HTML 404 page, or an empty 405):
 *
 * - A path with no route: app/api/[[...path]]/route.ts answers every method with 404
 *   `not_found` (`unknownPath`).
 * - A method the route does not serve: each route file exports, beside its endpoints, the
 *   other methods from `otherMethods({ GET, POST })`: 405 `method_not_allowed` with `Allow`,
 *   and OPTIONS 204 with the same `Allow`. (Next.js answers HEAD with GET, so HEAD is
 *   allowed wherever GET is.) tests/platform/route-table/contracts.test.ts checks every route file.
 */

/** The methods a route file exports a handler for (HEAD is served by GET; OPTIONS by otherMethods). */
export const routeMethods = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type RouteMethod = (typeof routeMethods)[number];

/** A handler standing in for a method the route does not serve; `unserved` tells it from an endpoint. */
export type UnservedHandler = ((req: Request) => Response) & { unserved: true };

const unserved = (answer: (req: Request) => Response): UnservedHandler => Object.assign(answer, { unserved: true as const });

/** The value of `Allow` for a route serving `methods`, sorted as Next.js sorts its own. */
export function allowHeader(methods: readonly string[]): string {
  const allowed = new Set([...methods, "OPTIONS"]);
  if (allowed.has("GET")) allowed.add("HEAD");
  return [...allowed].sort().join(", ");
}

/**
 * The handlers of every method a route file does not export itself, given the ones it does:
 * `export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });`. A method
 * listed twice (served and here) does not compile: the result has no such key.
 */
export function otherMethods<const Served extends Partial<Record<RouteMethod, unknown>>>(
  served: Served,
  options: { public?: boolean } = {},
): Record<Exclude<RouteMethod, keyof Served> | "OPTIONS", UnservedHandler> {
  const allow = allowHeader(Object.keys(served));
  // A public file any origin may read (a certificate's credential, the key set): its preflight and refusals say so too.
  const cors: Record<string, string> = options.public ? { "Access-Control-Allow-Origin": "*", "Access-Control-Allow-Methods": allow } : {};
  const handlers: Record<string, UnservedHandler> = {
    OPTIONS: unserved((req) => {
      const response = new Response(null, { status: 204, headers: { Allow: allow, ...cors } });
      setAnswerHeaders(response.headers, new URL(req.url).pathname, newId("req"));
      return response;
    }),
  };
  for (const method of routeMethods) {
    if (method in served) continue;
    handlers[method] = unserved((req) =>
      answer(req, new AppError("method_not_allowed", `${req.method} is not allowed on this path: it answers ${allow}.`), { Allow: allow, ...cors }),
    );
  }
  return handlers as Record<Exclude<RouteMethod, keyof Served> | "OPTIONS", UnservedHandler>;
}

const noSuchPath = unserved((req) => answer(req, new AppError("not_found", "No endpoint has this path. The API reference: /docs/api.")));

/** Every method of a path no route serves (app/api/[[...path]]/route.ts): 404 `not_found`. */
export const unknownPath: Record<RouteMethod | "OPTIONS", UnservedHandler> = {
  GET: noSuchPath,
  POST: noSuchPath,
  PUT: noSuchPath,
  PATCH: noSuchPath,
  DELETE: noSuchPath,
  OPTIONS: noSuchPath,
};

/**
 * The error answer with the headers every API answer carries, logged like the others — by
 * the path's first two segments only (`/api/t/…`): the rest may hold a personal token.
 */
function answer(req: Request, error: AppError, headers: Record<string, string> = {}): Response {
  const started = performance.now();
  const requestId = newId("req");
  const response = toErrorResponse(error, requestId);
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  setAnswerHeaders(response.headers, new URL(req.url).pathname, requestId);
  const prefix = new URL(req.url).pathname.split("/").slice(0, 3).join("/");
  logRequest({ method: req.method, url: `http://localhost${prefix}/…`, status: response.status, durationMs: performance.now() - started, requestId });
  return response;
}
