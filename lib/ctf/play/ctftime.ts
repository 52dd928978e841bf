import { asc, eq } from "drizzle-orm";
import type { Db } from "@/db";
import { challenges } from "@/db/schema";
import { conflict } from "@/lib/kernel/errors";
import { findCtf } from "@/lib/ctf/competitions/competitions";
import type { CtftimeFeed } from "./schemas";
import { publicStandings, solverKey } from "./standings";

const unixSeconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/**
 * CTFtime's scoreboard feed for a public competition (`GET /api/v1/ctfs/{ctf_id}/scoreboard/ctftime`):
 * the published challenges' titles as tasks, and every player (every team, in teams mode) in
 * scoreboard order with the points (a dynamic challenge's current value) and time (Unix
 * seconds) of each solve — from the archive snapshot once archived, else from the host (our
 * tables, as of `freeze_at` once passed, like the public board; or CTFd's API). A private
 * competition's players did not agree to a public ranking: 409.
 */
export async function ctftimeFeed(db: Db, workspaceId: string, ctfId: string): Promise<CtftimeFeed> {
  const ctf = await findCtf(db, workspaceId, ctfId);
  if (!ctf.isPublic) throw conflict("The competition is not public: CTFtime's feed is for public competitions only.");
  const [rows, standings] = await Promise.all([
    db.select({ id: challenges.id, title: challenges.title, status: challenges.status }).from(challenges).where(eq(challenges.ctfId, ctfId)).orderBy(asc(challenges.createdAt), asc(challenges.id)),
    publicStandings(db, ctf),
  ]);
  const titles = new Map(rows.map((row) => [row.id, row.title]));
  const statsOf = new Map<string, Record<string, { points: number; time: number }>>();
  const lastAcceptOf = new Map<string, number>();
  for (const solve of [...standings.solves].sort((a, b) => a.solved_at.localeCompare(b.solved_at))) {
    const title = titles.get(solve.challenge_id);
    if (!title) continue;
    const key = solverKey(solve);
    const stats = statsOf.get(key) ?? {};
    stats[title] = { points: solve.points, time: unixSeconds(solve.solved_at) };
    statsOf.set(key, stats);
    lastAcceptOf.set(key, unixSeconds(solve.solved_at));
  }
  return {
    tasks: rows.filter((row) => row.status === "published").map((row) => row.title),
    standings: standings.scores.map((entry) => ({
      pos: entry.pos,
      team: entry.name,
      score: entry.score,
      taskStats: statsOf.get(solverKey(entry)) ?? {},
      lastAccept: lastAcceptOf.get(solverKey(entry)) ?? 0,
    })),
  };
}
