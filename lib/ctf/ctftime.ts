import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/db";
import { challenges, solves } from "@/db/schema";
import { conflict } from "@/lib/errors";
import { findCtf } from "./competitions";
import type { CtftimeFeed } from "./play-schemas";
import { fullScoreboard } from "./scoreboard";

const unixSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

/**
 * CTFtime's scoreboard feed for a public competition (`GET /api/v1/ctfs/{ctf_id}/scoreboard/ctftime`):
 * the published challenges' titles as tasks, and every player in scoreboard order with the
 * points and time (Unix seconds) of each solve. A private competition's players did not
 * agree to a public ranking: 409.
 */
export async function ctftimeFeed(db: Db, workspaceId: string, ctfId: string): Promise<CtftimeFeed> {
  const ctf = await findCtf(db, workspaceId, ctfId);
  if (!ctf.isPublic) throw conflict("The competition is not public: CTFtime's feed is for public competitions only.");
  const [tasks, scores, solveRows] = await Promise.all([
    db
      .select({ title: challenges.title })
      .from(challenges)
      .where(and(eq(challenges.ctfId, ctfId), eq(challenges.status, "published")))
      .orderBy(asc(challenges.createdAt), asc(challenges.id)),
    fullScoreboard(db, ctfId),
    db
      .select({ memberId: solves.memberId, title: challenges.title, points: solves.points, solvedAt: solves.solvedAt })
      .from(solves)
      .innerJoin(challenges, eq(challenges.id, solves.challengeId))
      .where(eq(solves.ctfId, ctfId))
      .orderBy(asc(solves.solvedAt), asc(solves.id)),
  ]);
  const statsOf = new Map<string, Record<string, { points: number; time: number }>>();
  const lastAcceptOf = new Map<string, number>();
  for (const solve of solveRows) {
    const stats = statsOf.get(solve.memberId) ?? {};
    stats[solve.title] = { points: solve.points, time: unixSeconds(solve.solvedAt) };
    statsOf.set(solve.memberId, stats);
    lastAcceptOf.set(solve.memberId, unixSeconds(solve.solvedAt));
  }
  return {
    tasks: tasks.map((task) => task.title),
    standings: scores.map((entry) => ({
      pos: entry.pos,
      team: entry.name,
      score: entry.score,
      taskStats: statsOf.get(entry.member_id) ?? {},
      lastAccept: lastAcceptOf.get(entry.member_id) ?? 0,
    })),
  };
}
