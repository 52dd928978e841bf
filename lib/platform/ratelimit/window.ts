import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db";

/** One bucket a hit counts against: at most `limit` hits per sliding `windowMs`. */
export type WindowRule = { key: string; limit: number; windowMs: number };

export type BucketState = {
  key: string;
  limit: number;
  /** Whether this bucket had room for the hit (another bucket may still have refused it). */
  hasRoom: boolean;
  /** Hits left in the window after this one. */
  remaining: number;
  /** Unix seconds when the oldest counted hit leaves the window. */
  reset: number;
  /** Whole seconds until this bucket has room again (0 when it has room). */
  retryAfter: number;
};

export type WindowDecision = {
  /** Admitted: every bucket had room, and the hit was counted in each. */
  allowed: boolean;
  buckets: BucketState[];
  /** Whole seconds to wait when refused (at least 1), else 0. */
  retryAfter: number;
};

/**
 * A sliding-log limiter over named buckets, exact across instances. `hit` counts one hit
 * against every bucket given, all or nothing: refused when any bucket is full, and a
 * refused hit is counted nowhere. Keys are free-form strings, so any feature can have
 * buckets of its own (`mail:addr:…`, `mail:ip:…`, `session:…`).
 *
 * The PostgreSQL implementation fails closed: if the database cannot answer, `hit` throws
 * and the caller serves nothing (no mail, no write). Every caller needs the same database
 * for the work it guards, so failing open would not let anything through anyway.
 */
export interface WindowLimiter {
  hit(rules: WindowRule[]): Promise<WindowDecision>;
}

type HitRow = {
  bucket: string;
  admitted: boolean;
  has_room: boolean;
  remaining: number;
  reset_ms: string | number;
  retry_after_ms: string | number;
};

/**
 * The `rate_limit_hit` SQL function in one round trip. `db` may be a transaction: the hit
 * then counts only if it commits (so a refused or failed piece of work is not charged),
 * and the buckets stay locked until then.
 */
export function postgresWindowLimiter(db: Db): WindowLimiter {
  return {
    async hit(rules) {
      if (rules.length === 0) return { allowed: true, buckets: [], retryAfter: 0 };
      const keys = new Set(rules.map((rule) => rule.key));
      if (keys.size !== rules.length) throw new Error("rate limit: the same bucket twice in one hit");
      const list = (values: (string | number)[]) => sql.join(values.map((value) => sql`${value}`), sql`, `);
      const result = await db.execute(sql`select * from rate_limit_hit(
        array[${list(rules.map((rule) => rule.key))}]::text[],
        array[${list(rules.map((rule) => Math.floor(rule.limit)))}]::integer[],
        array[${list(rules.map((rule) => Math.floor(rule.windowMs)))}]::integer[])`);
      const rows = new Map(rowsOf<HitRow>(result).map((row) => [row.bucket, row]));
      const buckets = rules.map((rule): BucketState => {
        const row = rows.get(rule.key);
        if (!row) throw new Error(`rate limit: no answer for bucket ${rule.key}`);
        return {
          key: rule.key,
          limit: rule.limit,
          hasRoom: row.has_room,
          remaining: Number(row.remaining),
          reset: Math.ceil(Number(row.reset_ms) / 1000),
          retryAfter: row.has_room ? 0 : Math.max(1, Math.ceil(Number(row.retry_after_ms) / 1000)),
        };
      });
      const allowed = rows.get(rules[0].key)!.admitted;
      return { allowed, buckets, retryAfter: allowed ? 0 : Math.max(1, ...buckets.map((bucket) => bucket.retryAfter)) };
    },
  };
}
