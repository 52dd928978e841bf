import { getDb, type Db } from "@/db";
import type { Workspace } from "@/db/schema";
import { toErrorResponse } from "@/lib/api/http-errors";
import { rejectOversizedBody, rejectUnstorableParams } from "@/lib/api/parse";
import { requireSameOrigin } from "@/lib/api/same-origin";
import { AppError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { setRateHeaders, type RateState } from "@/lib/ratelimit";
import { admitSessionRequest, SESSION_RATE_LIMIT, type SessionAdmission } from "@/lib/ratelimit/session";
import { requireWorkspace, type SessionUser } from "./session";

export type SessionContext<P> = { req: Request; params: P; db: Db; user: SessionUser; workspace: Workspace };

/**
 * The wrapper of the dashboard's own JSON routes (`/api/app/**`): session → workspace →
 * rate limit (changes only) → handler, with the same error shape and rate-limit headers as
 * /api/v1. Changes must come from our own origin.
 */
export function withSession<P = Record<string, never>>(handler: (ctx: SessionContext<P>) => Promise<Response>) {
  return async (req: Request, context?: { params: Promise<P> }): Promise<Response> => {
    const requestId = newId("req");
    let rate: RateState | undefined;
    let response: Response;
    try {
      rejectOversizedBody(req);
      requireSameOrigin(req);
      const params = (await context?.params) ?? ({} as P);
      rejectUnstorableParams(params as Record<string, unknown>);
      const { user, workspace } = await requireWorkspace();
      const db = await getDb();
      if (isWrite(req)) {
        const admission = await admitSessionRequest(db, user.id);
        rate = admission.rate;
        rejectOverLimit(admission);
      }
      response = await handler({ req, params, db, user, workspace });
    } catch (error) {
      response = toErrorResponse(error, requestId, req);
    }
    response.headers.set("X-Request-Id", requestId);
    if (rate) setRateHeaders(response.headers, rate);
    return response;
  };
}

/**
 * Only changes count against the user's bucket: they are what sends mail, webhooks and
 * outbound calls. Reads are not limited: the dashboard polls every 1.5–5 s while something
 * is in progress (a competition page runs several such queries, and a user may keep tabs
 * open), and a read changes nothing outside the database.
 */
function isWrite(req: Request): boolean {
  return req.method !== "GET" && req.method !== "HEAD" && req.method !== "OPTIONS";
}

function rejectOverLimit(admission: SessionAdmission): void {
  if (admission.allowed) return;
  throw new AppError(
    "rate_limit_exceeded",
    `Rate limit exceeded: at most ${SESSION_RATE_LIMIT.requests} changes per ${SESSION_RATE_LIMIT.windowMs / 1000} seconds per signed-in user. Retry after ${admission.retryAfter} s.`,
    { retryAfter: admission.retryAfter },
  );
}
