import { and, asc, desc, eq, sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db";
import { flagAttempts, hintUnlocks, members, solves } from "@/db/schema";
import { offsetOf, page, type Page, type Paging } from "@/lib/kernel/paging";
import { defaultPlayerName } from "./players";
import type { HostStandings } from "@/lib/ctf/hosting/types";
import type { ScoreboardEntry } from "./schemas";

/**
 * The scoreboard, derived from solves and hint unlocks (never stored while the competition
 * runs): every joined player, by score (points of solved challenges minus the costs of
 * unlocked hints), ties broken by who reached that score first (the last solve or unlock),
 * then by who joined first. Positions are distinct (1, 2, 3… in that order). Names only:
 * addresses are never shown.
 */
export async function scoreboardPage(db: Db, ctfId: string, paging: Paging): Promise<Page<ScoreboardEntry>> {
  const ranked = rankedPlayers(db, ctfId);
  const [rows, [{ total }]] = await Promise.all([
    ranked.limit(paging.per_page).offset(offsetOf(paging)),
    db.select({ total: sql<number>`count(*)::int` }).from(members).where(and(eq(members.ctfId, ctfId), eq(members.status, "joined"))),
  ]);
  const offset = offsetOf(paging);
  return page(rows.map((row, index) => toEntry(row, offset + index + 1)), paging, total);
}

/** Every joined player's score, in scoreboard order (the archive snapshot writes these). */
export async function fullScoreboard(db: Db, ctfId: string): Promise<(ScoreboardEntry & { email: string })[]> {
  return (await rankedPlayers(db, ctfId)).map((row, index) => ({ ...toEntry(row, index + 1), email: row.email }));
}

/** One player's current score. */
export async function playerScore(db: Db, memberId: string): Promise<number> {
  const result = await db.execute(sql`select
    (select coalesce(sum(${solves.points}), 0) from ${solves} where ${solves.memberId} = ${memberId})
    - (select coalesce(sum(${hintUnlocks.cost}), 0) from ${hintUnlocks} where ${hintUnlocks.memberId} = ${memberId}) as score`);
  return Number(rowsOf<{ score: number | string }>(result)[0].score);
}

/**
 * The standings kept in our tables (the built-in host): the scoreboard with each player's
 * address (for the snapshot), every solve, and the attempts per challenge (counts only, never
 * what was submitted).
 */
export async function builtinStandings(db: Db, ctfId: string): Promise<HostStandings> {
  const [scores, solveRows, attemptRows] = await Promise.all([
    fullScoreboard(db, ctfId),
    db.select({ member_id: solves.memberId, challenge_id: solves.challengeId, points: solves.points, solvedAt: solves.solvedAt }).from(solves).where(eq(solves.ctfId, ctfId)).orderBy(asc(solves.solvedAt), asc(solves.id)),
    db
      .select({
        challenge_id: flagAttempts.challengeId,
        attempts: sql<number>`count(*)::int`,
        correct: sql<number>`(count(*) filter (where ${flagAttempts.result} = 'correct'))::int`,
      })
      .from(flagAttempts)
      .where(eq(flagAttempts.ctfId, ctfId))
      .groupBy(flagAttempts.challengeId),
  ]);
  return {
    scores,
    solves: solveRows.map(({ solvedAt, ...row }) => ({ ...row, solved_at: solvedAt.toISOString() })),
    attempts: attemptRows.map((row) => ({ ...row, attempts: Number(row.attempts), correct: Number(row.correct) })),
  };
}

/**
 * At archiving, in its transaction: writes each known member's final score (`members.score`)
 * from the host's standings (read in this transaction for the built-in host), and returns
 * them for the snapshot.
 */
export async function settleFinalScores(tx: Db, standings: HostStandings): Promise<HostStandings> {
  for (const entry of standings.scores) if (entry.member_id) await tx.update(members).set({ score: entry.score }).where(eq(members.id, entry.member_id));
  return standings;
}

function rankedPlayers(db: Db, ctfId: string) {
  const solved = db
    .select({
      memberId: solves.memberId,
      points: sql<number>`sum(${solves.points})::int`.as("points"),
      count: sql<number>`count(*)::int`.as("count"),
      last: sql<Date>`max(${solves.solvedAt})`.as("last_solve"),
    })
    .from(solves)
    .where(eq(solves.ctfId, ctfId))
    .groupBy(solves.memberId)
    .as("solved");
  const unlocked = db
    .select({
      memberId: hintUnlocks.memberId,
      cost: sql<number>`sum(${hintUnlocks.cost})::int`.as("cost"),
      last: sql<Date>`max(${hintUnlocks.unlockedAt})`.as("last_unlock"),
    })
    .from(hintUnlocks)
    .where(eq(hintUnlocks.ctfId, ctfId))
    .groupBy(hintUnlocks.memberId)
    .as("unlocked");
  const score = sql<number>`(coalesce(${solved.points}, 0) - coalesce(${unlocked.cost}, 0))::int`;
  // greatest() skips nulls: the moment the score became what it is; none for a player who did nothing.
  const reachedAt = sql`greatest(${solved.last}, ${unlocked.last})`;
  return db
    .select({
      memberId: members.id,
      email: members.email,
      displayName: members.displayName,
      score,
      solves: sql<number>`coalesce(${solved.count}, 0)::int`,
      lastSolveAt: sql<string | null>`to_char(${solved.last} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
    })
    .from(members)
    .leftJoin(solved, eq(solved.memberId, members.id))
    .leftJoin(unlocked, eq(unlocked.memberId, members.id))
    .where(and(eq(members.ctfId, ctfId), eq(members.status, "joined")))
    .orderBy(desc(score), sql`${reachedAt} asc nulls last`, asc(members.joinedAt), asc(members.id))
    .$dynamic();
}

type RankedRow = { memberId: string; email: string; displayName: string | null; score: number; solves: number; lastSolveAt: string | null };

function toEntry(row: RankedRow, pos: number): ScoreboardEntry {
  return {
    pos,
    member_id: row.memberId,
    name: row.displayName ?? defaultPlayerName(row.email),
    score: Number(row.score),
    solves: Number(row.solves),
    last_solve_at: row.lastSolveAt,
  };
}
