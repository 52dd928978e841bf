import type { Db } from "@/db";
import { RATE_LIMIT, type RateState } from ".";
import { postgresWindowLimiter } from "./window";

/** A signed-in user in the dashboard gets the numbers of an API key: 120 requests per 60 s. */
export const SESSION_RATE_LIMIT = { requests: RATE_LIMIT.requests, windowMs: RATE_LIMIT.windowMs } as const;

export type SessionAdmission = { allowed: boolean; rate: RateState; retryAfter: number };

/** One request of this user against their own bucket (one round trip). */
export async function admitSessionRequest(db: Db, userId: string): Promise<SessionAdmission> {
  const decision = await postgresWindowLimiter(db).hit([
    { key: `session:${userId}`, limit: SESSION_RATE_LIMIT.requests, windowMs: SESSION_RATE_LIMIT.windowMs },
  ]);
  const [bucket] = decision.buckets;
  return {
    allowed: decision.allowed,
    rate: { limit: bucket.limit, remaining: decision.allowed ? bucket.remaining : 0, reset: bucket.reset },
    retryAfter: decision.retryAfter,
  };
}
