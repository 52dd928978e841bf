import { getDatabase, type Database, type Db } from "@/db";
import { AppError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { hasScope, type ApiScope } from "@/lib/keys/scopes";
import { hashApiKey, readApiKey } from "@/lib/keys/secret";
import { postgresLimiter, RATE_LIMIT, setRateHeaders, type Admission, type RateState, type RequestLimiter } from "@/lib/ratelimit";
import { toErrorResponse } from "./http-errors";
import { rejectOversizedBody, rejectUnstorableParams } from "./parse";
import { logRequest } from "./log";

export type ApiContext<P> = {
  req: Request;
  params: P;
  db: Db;
  workspaceId: string;
  key: Admission["key"];
  requestId: string;
};

export type ApiRouteOptions = {
  /** Scope the key must hold (certification routes need none beyond an active key). */
  scope?: ApiScope;
  /** Counts against the 30-per-60-s creations log as well. */
  creation?: boolean;
};

type RouteContext<P> = { params: Promise<P> };

/**
 * The one wrapper of every `/api/v1` route: request id → key → admission (key check and
 * rate limit in one round trip) → scope → handler → headers and one log line. Every
 * response, errors included, leaves through `finish`.
 */
export function withApiKey<P = Record<string, never>>(
  handler: (ctx: ApiContext<P>) => Promise<Response>,
  options: ApiRouteOptions = {},
) {
  return async (req: Request, context?: RouteContext<P>): Promise<Response> => {
    const started = performance.now();
    const requestId = newId("req");
    let rate: RateState | undefined;
    let keyPrefix: string | undefined;
    let response: Response;
    try {
      rejectOversizedBody(req);
      const database = await getDatabase();
      const admission = await admit(database, req, options);
      rate = admission.rate;
      keyPrefix = admission.key.prefix;
      rejectOverLimit(admission);
      requireScope(admission, options.scope);
      const params = (await context?.params) ?? ({} as P);
      rejectUnstorableParams(params as Record<string, unknown>);
      response = await handler({
        req,
        params,
        db: database.db,
        workspaceId: admission.key.workspaceId,
        key: admission.key,
        requestId,
      });
    } catch (error) {
      response = toErrorResponse(error, requestId, req);
    }
    return finish(req, response, { requestId, rate, keyPrefix, started });
  };
}

const limiters = new WeakMap<Database, RequestLimiter>();

function limiterFor(database: Database): RequestLimiter {
  let limiter = limiters.get(database);
  if (!limiter) limiters.set(database, (limiter = postgresLimiter(database)));
  return limiter;
}

async function admit(database: Database, req: Request, options: ApiRouteOptions): Promise<Admission> {
  const secret = readApiKey(req.headers);
  if (!secret) {
    throw new AppError("unauthorized", "Missing API key: send it as X-API-KEY or Authorization: Bearer <key>.");
  }
  const admission = await limiterFor(database).admit(hashApiKey(secret), { creation: options.creation === true });
  if (!admission) throw new AppError("unauthorized", "The API key is unknown or has been revoked.");
  return admission;
}

function rejectOverLimit(admission: Admission): void {
  if (admission.allowed) return;
  const what =
    admission.limitedBy === "creations"
      ? `at most ${RATE_LIMIT.creations} creations`
      : `at most ${RATE_LIMIT.requests} requests`;
  throw new AppError(
    "rate_limit_exceeded",
    `Rate limit exceeded: ${what} per ${RATE_LIMIT.windowMs / 1000} seconds per API key. Retry after ${admission.retryAfter} s.`,
    { retryAfter: admission.retryAfter },
  );
}

function requireScope(admission: Admission, scope: ApiScope | undefined): void {
  if (!hasScope(admission.key.scopes, scope)) {
    throw new AppError("forbidden", `This API key lacks the ${scope} scope.`);
  }
}

function finish(
  req: Request,
  response: Response,
  meta: { requestId: string; rate?: RateState; keyPrefix?: string; started: number },
): Response {
  // Requests refused before a key was found count against no bucket: they show a full one.
  const rate = meta.rate ?? { limit: RATE_LIMIT.requests, remaining: RATE_LIMIT.requests, reset: Math.ceil(Date.now() / 1000) };
  response.headers.set("X-Request-Id", meta.requestId);
  setRateHeaders(response.headers, rate);
  logRequest({
    method: req.method,
    url: req.url,
    status: response.status,
    durationMs: performance.now() - meta.started,
    requestId: meta.requestId,
    keyPrefix: meta.keyPrefix,
  });
  return response;
}

/** JSON response helper for handlers. */
export function json(data: unknown, status = 200): Response {
  return Response.json(data, { status });
}
