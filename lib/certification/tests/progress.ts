import { inArray, sql, type SQLWrapper } from "drizzle-orm";
import type { Db } from "@/db";
import { answers } from "@/db/schema";

/**
 * How many questions each given recipient has answered so far (the `answered` of a recipient
 * in the API), in one grouped query served by the answers' (recipient, question) key.
 * Recipients without an answer are absent: read them with `answeredBy`. `recipientIds`: a list,
 * or a subquery of ids (a whole test's recipients, without sending thousands of parameters).
 */
export async function answeredCounts(db: Db, recipientIds: number[] | SQLWrapper): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  if (Array.isArray(recipientIds) && recipientIds.length === 0) return counts;
  const rows = await db
    .select({ recipientId: answers.recipientId, answered: sql<number>`count(*)::int` })
    .from(answers)
    .where(inArray(answers.recipientId, Array.isArray(recipientIds) ? [...new Set(recipientIds)] : recipientIds))
    .groupBy(answers.recipientId);
  for (const row of rows) counts.set(row.recipientId, Number(row.answered));
  return counts;
}

export function answeredBy(counts: Map<number, number>, recipientId: number): number {
  return counts.get(recipientId) ?? 0;
}
