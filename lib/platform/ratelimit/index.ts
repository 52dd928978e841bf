import type { Database } from "@/db";

/** The limits of the specification: per API key, sliding 60-second windows. */
export const RATE_LIMIT = { requests: 120, creations: 30, windowMs: 60_000 } as const;

export type RateState = {
  limit: number;
  remaining: number;
  /** Unix seconds when the oldest counted request leaves the window. */
  reset: number;
};

/** The three `X-RateLimit-*` headers every limited response carries, API key or session alike. */
export function setRateHeaders(headers: Headers, rate: RateState): void {
  headers.set("X-RateLimit-Limit", String(rate.limit));
  headers.set("X-RateLimit-Remaining", String(rate.remaining));
  headers.set("X-RateLimit-Reset", String(rate.reset));
}

/** Requests answered before a key was found (or with no route at all) count against no bucket: they show a full one. */
export function uncountedRate(): RateState {
  return { limit: RATE_LIMIT.requests, remaining: RATE_LIMIT.requests, reset: Math.ceil(Date.now() / 1000) };
}

export type Admission = {
  key: { id: string; workspaceId: string; scopes: string[] | null; prefix: string };
  allowed: boolean;
  /** Which log refused the request, when it was refused. */
  limitedBy: "requests" | "creations" | null;
  rate: RateState;
  /** Whole seconds to wait, when refused (at least 1). */
  retryAfter: number;
};

/**
 * Decides whether a request with this key may run. Implementations must be exact across
 * instances. The PostgreSQL one fails closed: if the database cannot answer, the request
 * is not served (503), because the key could not be checked either.
 */
export interface RequestLimiter {
  admit(keyHash: string, options: { creation: boolean }): Promise<Admission | null>;
}

type AdmitRow = {
  key_id: string;
  workspace_id: string;
  scopes: string[] | null;
  prefix: string;
  allowed: boolean;
  limited_by: "requests" | "creations" | null;
  remaining: number;
  reset_ms: string | number;
  retry_after_ms: string | number;
};

const ADMIT_SQL = "select * from api_key_admit($1, $2, $3, $4)";

/** Key lookup and both sliding logs in one round trip: the `api_key_admit` SQL function. */
export function postgresLimiter(database: Database): RequestLimiter {
  return {
    async admit(keyHash, { creation }) {
      const [row] = await database.query<AdmitRow>(ADMIT_SQL, [
        keyHash,
        RATE_LIMIT.requests,
        RATE_LIMIT.windowMs,
        creation ? RATE_LIMIT.creations : 0,
      ]);
      if (!row) return null;
      return {
        key: { id: row.key_id, workspaceId: row.workspace_id, scopes: row.scopes, prefix: row.prefix },
        allowed: row.allowed,
        limitedBy: row.limited_by,
        rate: {
          limit: RATE_LIMIT.requests,
          remaining: row.allowed ? row.remaining : 0,
          reset: Math.ceil(Number(row.reset_ms) / 1000),
        },
        retryAfter: Math.max(1, Math.ceil(Number(row.retry_after_ms) / 1000)),
      };
    },
  };
}
