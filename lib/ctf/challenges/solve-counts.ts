import { and, eq, lt, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { solves } from "@/db/schema";

/**
 * A challenge's solves (one per player, or per team): what a dynamic challenge's value follows
 * (./scoring.ts). `before`: only the solves before it (a freeze's cutoff).
 */

/** As a correlated subquery of a select from `challenges` (one query for a list, no N+1). */
export const solveCountSql = (before?: Date | null) =>
  sql<number>`(select count(*)::int from ${solves} s where s.challenge_id = "challenges"."id"${before ? sql` and s.solved_at < ${before.toISOString()}::timestamptz` : sql``})`;

/** One challenge's. */
export async function solveCount(db: Db, challengeId: string, before?: Date | null): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(solves)
    .where(and(eq(solves.challengeId, challengeId), before ? lt(solves.solvedAt, before) : undefined));
  return Number(row?.n ?? 0);
}
