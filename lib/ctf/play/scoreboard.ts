import { and, asc, desc, eq, isNotNull, isNull, lt, sql, type SQL } from "drizzle-orm";
import { rowsOf, type Db } from "@/db";
import { challenges, ctfs, flagAttempts, hintUnlocks, members, solves, teams, type CtfMode } from "@/db/schema";
import { offsetOf, page, type Page, type Paging } from "@/lib/kernel/paging";
import { defaultPlayerName } from "@/lib/ctf/competitions/views";
import type { HostSolve, HostStanding, HostStandings } from "@/lib/ctf/hosting/types";
import type { ScoreboardEntry } from "./schemas";

/**
 * The scoreboard, derived from solves and hint unlocks (never stored while the competition
 * runs): every joined player (individual mode) or every team (teams mode), by score (points
 * of solved challenges minus the costs of unlocked hints), ties broken by who reached that
 * score first (the last solve or unlock), then by who joined (or was created) first.
 * Positions are distinct (1, 2, 3… in that order). Names only: addresses are never shown.
 *
 * A solve counts for its challenge's value: a static challenge's points as stored with the
 * solve, a dynamic challenge's CURRENT value (CTFd's formula over the challenge's solves, so
 * every solver's score follows it). `cutoff` (a frozen public board): only solves and unlocks
 * before it count, and the dynamic values are those of then.
 */

/** Which competition, and as of when: null is now (live); a date counts only what came before it. */
export type BoardScope = { ctfId: string; mode: CtfMode; cutoff: Date | null };

/** A solve with what it counts for on a board, and whether it drew first blood. */
export type StandingSolve = HostSolve & { team_id: string | null; first_blood: boolean };
/** A scoreboard entry with the address kept for the snapshot (null for a team). */
export type Standing = HostStanding & { team_id: string | null; first_blood: string[] };
/** The built-in host's standings: entries and solves carry team ids and first bloods. */
export type Standings = { scores: Standing[]; solves: StandingSolve[]; attempts: HostStandings["attempts"] };

const field = (scoring: SQL, name: string) => sql`(${scoring} ->> ${sql.raw(`'${name}'`)})::float8`;

/**
 * CTFd's dynamic value in SQL, the same arithmetic in the same order as `challengeValue`
 * (lib/ctf/challenges/scoring.ts, the one definition; tests/ctf/play/scoring-sql.test.ts checks
 * that both agree): ceil(((minimum − initial) / decay²) · s² + initial), never below minimum,
 * s = solves − 1 (0 without solves). Doubles on both sides (float8 is IEEE 754, as JS numbers).
 */
export function dynamicValueSql(scoring: SQL, solveCount: SQL): SQL<number> {
  const [initial, minimum, decay] = [field(scoring, "initial"), field(scoring, "minimum"), field(scoring, "decay")];
  const s = sql`greatest(${solveCount} - 1, 0)::float8`;
  return sql<number>`greatest(${minimum}, ceil(((${minimum} - ${initial}) / (${decay} * ${decay})) * (${s} * ${s}) + ${initial}))::int`;
}

const before = (column: typeof solves.solvedAt | typeof hintUnlocks.unlockedAt | typeof flagAttempts.createdAt, cutoff: Date | null) => (cutoff ? lt(column, cutoff) : undefined);

/**
 * Every solve of the competition (before the cutoff) with the value it counts for now and
 * whether it was the challenge's first (earliest `solved_at`, then id). Window functions over
 * the competition's solves: one scan, whatever the number of challenges.
 */
export function valuedSolves(db: Db, scope: Pick<BoardScope, "ctfId" | "cutoff">) {
  const solveCount = sql`count(*) over (partition by ${solves.challengeId})`;
  return db
    .select({
      id: solves.id,
      memberId: solves.memberId,
      teamId: solves.teamId,
      challengeId: solves.challengeId,
      solvedAt: solves.solvedAt,
      value: sql<number>`case when ${challenges.scoring} ->> 'type' = 'dynamic' then ${dynamicValueSql(sql`${challenges.scoring}`, solveCount)} else ${solves.points} end`.as("value"),
      firstBlood: sql<boolean>`row_number() over (partition by ${solves.challengeId} order by ${solves.solvedAt}, ${solves.id}) = 1`.as("first_blood"),
    })
    .from(solves)
    .innerJoin(challenges, eq(challenges.id, solves.challengeId))
    .where(and(eq(solves.ctfId, scope.ctfId), before(solves.solvedAt, scope.cutoff)))
    .as("valued");
}

/**
 * One player's (individual mode) or team's (teams mode: `teamId`) score: all their solves and
 * hint unlocks. A dynamic challenge counts for its current value, or with `valuesAt` (a freeze
 * that has passed: what players see) for its value as of then, from the solves before it, so
 * that their own score does not move when others solve after the freeze (their own solves
 * after it still count, at that value).
 */
export async function playerScore(db: Db, solver: { ctfId: string; memberId: string; teamId: string | null }, valuesAt: Date | null = null): Promise<number> {
  const solveCount = sql`(select count(*) from ${solves} s where s.challenge_id = ${solves.challengeId}${valuesAt ? sql` and s.solved_at < ${valuesAt.toISOString()}::timestamptz` : sql``})`;
  const value = sql`case when ${challenges.scoring} ->> 'type' = 'dynamic' then ${dynamicValueSql(sql`${challenges.scoring}`, solveCount)} else ${solves.points} end`;
  const ownSolve = solver.teamId ? eq(solves.teamId, solver.teamId) : and(eq(solves.memberId, solver.memberId), isNull(solves.teamId));
  const ownUnlock = solver.teamId ? eq(hintUnlocks.teamId, solver.teamId) : and(eq(hintUnlocks.memberId, solver.memberId), isNull(hintUnlocks.teamId));
  const points = db
    .select({ points: sql`coalesce(sum(${value}), 0)` })
    .from(solves)
    .innerJoin(challenges, eq(challenges.id, solves.challengeId))
    .where(and(eq(solves.ctfId, solver.ctfId), ownSolve));
  const costs = db.select({ cost: sql`coalesce(sum(${hintUnlocks.cost}), 0)` }).from(hintUnlocks).where(and(eq(hintUnlocks.ctfId, solver.ctfId), ownUnlock));
  const result = await db.execute(sql`select (${points}) - (${costs}) as score`);
  return Number(rowsOf<{ score: number | string }>(result)[0].score);
}

export async function scoreboardPage(db: Db, scope: BoardScope, paging: Paging): Promise<Page<ScoreboardEntry>> {
  const [rows, total] = await Promise.all([ranked(db, scope).limit(paging.per_page).offset(offsetOf(paging)), entryCount(db, scope)]);
  const offset = offsetOf(paging);
  return page(rows.map((row, index) => toEntry(row, offset + index + 1)), paging, total);
}

/** Every entry, in scoreboard order, with players' addresses (the archive snapshot writes these). */
export async function fullScoreboard(db: Db, scope: BoardScope): Promise<Standing[]> {
  return (await ranked(db, scope)).map((row, index) => ({ ...toEntry(row, index + 1), email: row.email }));
}

/** A competition's mode, read for the built-in host's standings (handed only a competition id). */
async function modeOf(db: Db, ctfId: string): Promise<CtfMode> {
  const [row] = await db.select({ mode: ctfs.mode }).from(ctfs).where(eq(ctfs.id, ctfId));
  return row?.mode ?? "individual";
}

/**
 * The standings kept in our tables (the built-in host): the scoreboard with each player's
 * address (for the snapshot), every solve with the points it counts for and its first-blood
 * mark, and the attempts per challenge (counts only, never what was submitted). `cutoff`:
 * as of a frozen board's moment.
 */
export async function builtinStandings(db: Db, ctfId: string, cutoff: Date | null = null): Promise<Standings> {
  const scope: BoardScope = { ctfId, mode: await modeOf(db, ctfId), cutoff };
  const valued = valuedSolves(db, scope);
  const [scores, solveRows, attemptRows] = await Promise.all([
    fullScoreboard(db, scope),
    db
      .select({ member_id: valued.memberId, team_id: valued.teamId, challenge_id: valued.challengeId, points: valued.value, solvedAt: valued.solvedAt, first_blood: valued.firstBlood })
      .from(valued)
      .orderBy(asc(valued.solvedAt), asc(valued.id)),
    db
      .select({
        challenge_id: flagAttempts.challengeId,
        attempts: sql<number>`count(*)::int`,
        correct: sql<number>`(count(*) filter (where ${flagAttempts.result} = 'correct'))::int`,
      })
      .from(flagAttempts)
      .where(and(eq(flagAttempts.ctfId, ctfId), before(flagAttempts.createdAt, cutoff)))
      .groupBy(flagAttempts.challengeId),
  ]);
  return {
    scores,
    solves: solveRows.map(({ solvedAt, ...row }) => ({ ...row, points: Number(row.points), first_blood: Boolean(row.first_blood), solved_at: new Date(solvedAt).toISOString() })),
    attempts: attemptRows.map((row) => ({ ...row, attempts: Number(row.attempts), correct: Number(row.correct) })),
  };
}

/**
 * At archiving, in its transaction: writes each known member's final score (`members.score`)
 * from the host's standings (read in this transaction for the built-in host) — in teams mode
 * every member of a team gets the team's — and returns them for the snapshot.
 */
export async function settleFinalScores<S extends HostStandings>(tx: Db, standings: S): Promise<S> {
  for (const entry of standings.scores as (HostStanding & { team_id?: string | null })[]) {
    if (entry.team_id) await tx.update(members).set({ score: entry.score }).where(eq(members.teamId, entry.team_id));
    else if (entry.member_id) await tx.update(members).set({ score: entry.score }).where(eq(members.id, entry.member_id));
  }
  return standings;
}

/** Per solver (a member, or a team): the points of their solves, how many, the last, the first bloods. */
function solvedBy(db: Db, scope: BoardScope) {
  const valued = valuedSolves(db, scope);
  const solver = scope.mode === "teams" ? valued.teamId : valued.memberId;
  return db
    .select({
      solverId: sql<string>`${solver}`.as("solved_by"),
      points: sql<number>`sum(${valued.value})::int`.as("points"),
      count: sql<number>`count(*)::int`.as("count"),
      last: sql<Date>`max(${valued.solvedAt})`.as("last_solve"),
      firstBlood: sql<string[]>`coalesce(jsonb_agg(${valued.challengeId} order by ${valued.solvedAt}, ${valued.id}) filter (where ${valued.firstBlood}), '[]'::jsonb)`.as("first_blood"),
    })
    .from(valued)
    .where(scope.mode === "teams" ? isNotNull(valued.teamId) : undefined)
    .groupBy(solver)
    .as("solved");
}

/** Per solver: the costs of their hint unlocks and the last one. */
function unlockedBy(db: Db, scope: BoardScope) {
  const solver = scope.mode === "teams" ? hintUnlocks.teamId : hintUnlocks.memberId;
  return db
    .select({
      solverId: sql<string>`${solver}`.as("unlocked_by"),
      cost: sql<number>`sum(${hintUnlocks.cost})::int`.as("cost"),
      last: sql<Date>`max(${hintUnlocks.unlockedAt})`.as("last_unlock"),
    })
    .from(hintUnlocks)
    .where(and(eq(hintUnlocks.ctfId, scope.ctfId), before(hintUnlocks.unlockedAt, scope.cutoff), scope.mode === "teams" ? isNotNull(hintUnlocks.teamId) : undefined))
    .groupBy(solver)
    .as("unlocked");
}

/** The ranked entries: joined players, or (teams mode) the competition's teams. */
function ranked(db: Db, scope: BoardScope) {
  const solved = solvedBy(db, scope);
  const unlocked = unlockedBy(db, scope);
  const score = sql<number>`(coalesce(${solved.points}, 0) - coalesce(${unlocked.cost}, 0))::int`;
  // greatest() skips nulls: the moment the score became what it is; none for an entry that did nothing.
  const reachedAt = sql`greatest(${solved.last}, ${unlocked.last}) asc nulls last`;
  const figures = {
    score,
    solves: sql<number>`coalesce(${solved.count}, 0)::int`,
    lastSolveAt: sql<string | null>`to_char(${solved.last} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
    firstBlood: sql<string[]>`coalesce(${solved.firstBlood}, '[]'::jsonb)`,
  };
  if (scope.mode === "teams") {
    return db
      .select({ memberId: sql<string | null>`null`, teamId: teams.id, email: sql<string | null>`null`, displayName: teams.name, ...figures })
      .from(teams)
      .leftJoin(solved, eq(solved.solverId, teams.id))
      .leftJoin(unlocked, eq(unlocked.solverId, teams.id))
      .where(eq(teams.ctfId, scope.ctfId))
      .orderBy(desc(score), reachedAt, asc(teams.createdAt), asc(teams.id))
      .$dynamic();
  }
  return db
    .select({ memberId: members.id, teamId: sql<string | null>`null`, email: members.email, displayName: members.displayName, ...figures })
    .from(members)
    .leftJoin(solved, eq(solved.solverId, members.id))
    .leftJoin(unlocked, eq(unlocked.solverId, members.id))
    .where(and(eq(members.ctfId, scope.ctfId), eq(members.status, "joined")))
    .orderBy(desc(score), reachedAt, asc(members.joinedAt), asc(members.id))
    .$dynamic();
}

async function entryCount(db: Db, scope: BoardScope): Promise<number> {
  const [{ total }] =
    scope.mode === "teams"
      ? await db.select({ total: sql<number>`count(*)::int` }).from(teams).where(eq(teams.ctfId, scope.ctfId))
      : await db.select({ total: sql<number>`count(*)::int` }).from(members).where(and(eq(members.ctfId, scope.ctfId), eq(members.status, "joined")));
  return Number(total);
}

type RankedRow = { memberId: string | null; teamId: string | null; email: string | null; displayName: string | null; score: number; solves: number; lastSolveAt: string | null; firstBlood: string[] | string };

function toEntry(row: RankedRow, pos: number): ScoreboardEntry {
  return {
    pos,
    member_id: row.memberId,
    team_id: row.teamId,
    name: row.displayName ?? defaultPlayerName(row.email ?? ""),
    score: Number(row.score),
    solves: Number(row.solves),
    last_solve_at: row.lastSolveAt,
    // A driver that hands jsonb over as text: parsed here.
    first_blood: typeof row.firstBlood === "string" ? (JSON.parse(row.firstBlood) as string[]) : row.firstBlood,
  };
}
