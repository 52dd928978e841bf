import { index, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Sliding-log rate-limit buckets, one row per key (`mail:addr:<sha256>`, `mail:ip:<ip>`,
 * `session:<user id>`…). `hits` holds the times of the admitted hits still inside the
 * window; the locked row is the atomic section per key (see the `rate_limit_hit` SQL
 * function), so the count is exact across instances. `expires_at` is when the last hit
 * leaves its window: past it the row says nothing and may be deleted.
 */
export const rateLimitBuckets = pgTable(
  "rate_limit_buckets",
  {
    key: text("key").primaryKey(),
    hits: timestamp("hits", { withTimezone: true }).array().notNull().default([]),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("rate_limit_buckets_expires_idx").on(t.expiresAt)],
);

export type RateLimitBucket = typeof rateLimitBuckets.$inferSelect;
