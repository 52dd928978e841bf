import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { transactionWithRetry } from "@/db/transaction";
import { challenges, ctfs, flagAttempts, hintUnlocks, solves, type AttemptResult, type Challenge, type Ctf } from "@/db/schema";
import { config } from "@/lib/kernel/config/config";
import { AppError, conflict, notFound } from "@/lib/kernel/errors";
import { newId } from "@/lib/kernel/ids";
import { postgresWindowLimiter } from "@/lib/platform/ratelimit/window";
import { flagAccepts } from "@/lib/ctf/challenges/flags/flags";
import { challengeValue } from "@/lib/ctf/challenges/scoring";
import { solveCount } from "@/lib/ctf/challenges/solve-counts";
import { rowsOfSolver, solverOf, type Solver } from "@/lib/ctf/teams/solvers";
import type { FlagAttemptView, HintUnlockView } from "./schemas";
import type { Player } from "./players";
import { playerScore } from "./scoreboard";
import { freezeCutoff } from "./standings";

/**
 * Playing a competition: a joined player submits flags and unlocks hints, only while the
 * competition runs (deployed, and between starts_at and ends_at). Every submission is
 * recorded; a solve is at most one per solver and challenge (a unique index), so two
 * correct submissions at once make one solve and the other answers `already_solved`. The
 * solver is the player, or in teams mode their team (lib/ctf/teams/solvers.ts): its members
 * share solves, hint costs, attempts and the throttle. A challenge with `requires` stays
 * locked (409) until the solver has solved those; one with `max_attempts` closes for the
 * solver after that many wrong flags.
 */

/** Wrong flags a player may submit per challenge per sliding minute. */
export const FLAG_ATTEMPT_LIMIT = { attempts: 10, windowMs: 60_000 } as const;

/**
 * Flags one competition takes per sliding minute, all players together
 * (FLAG_ATTEMPTS_PER_COMPETITION, default 600): however many players (or self-enrolled
 * addresses) one guesser holds, the guesses a flag can get stay bounded.
 */
export function competitionAttemptLimit(): { attempts: number; windowMs: number } {
  return { attempts: config().flagAttempts.perCompetition, windowMs: FLAG_ATTEMPT_LIMIT.windowMs };
}

export type RunningState = "not_deployed" | "not_started" | "running" | "ended";

export function runningState(ctf: Pick<Ctf, "status" | "startsAt" | "endsAt">, now = new Date()): RunningState {
  if (ctf.status !== "deployed") return "not_deployed";
  if (now < ctf.startsAt) return "not_started";
  if (now >= ctf.endsAt) return "ended";
  return "running";
}

/** 409 naming why the competition cannot be played now, with its times. */
export function assertRunning(ctf: Ctf, now: Date): void {
  const state = runningState(ctf, now);
  if (state === "running") return;
  if (state === "not_started") throw conflict(`The competition is not running: it starts at ${ctf.startsAt.toISOString()}.`);
  if (state === "ended") throw conflict(`The competition is not running: it ended at ${ctf.endsAt.toISOString()}.`);
  throw conflict(`The competition is not running: it is ${ctf.status}.`);
}

/**
 * The competition (KEY SHARE: archiving, which takes FOR UPDATE, waits for this transaction,
 * so its snapshot sees every solve), one of its published challenges (another competition's
 * is a 404 like a missing one), and who plays it: the player, or in teams mode their team,
 * read now (none yet → 409).
 */
async function runningChallenge(tx: Db, player: Player, challengeId: string, now: Date): Promise<{ ctf: Ctf; challenge: Challenge; solver: Solver }> {
  const [ctf] = await tx.select().from(ctfs).where(eq(ctfs.id, player.ctfId)).for("key share");
  if (!ctf) throw notFound("Competition");
  // On an external host the players play there (CTFd's own flag box): nothing is scored here.
  if (ctf.host !== "builtin") throw conflict("This competition is played on its hosting platform (CTFd): submit flags and unlock hints there.");
  assertRunning(ctf, now);
  const [challenge] = await tx
    .select()
    .from(challenges)
    .where(and(eq(challenges.id, challengeId), eq(challenges.ctfId, ctf.id), eq(challenges.status, "published")));
  if (!challenge) throw notFound("Challenge");
  return { ctf, challenge, solver: await solverOf(tx, ctf, player.memberId, { requireTeam: true }) };
}

/** The challenges (ids) `solver` has solved in their competition. */
async function solvedIds(db: Db, solver: Solver & { teamless?: boolean }): Promise<Set<string>> {
  const rows = await db.select({ challengeId: solves.challengeId }).from(solves).where(and(eq(solves.ctfId, solver.ctfId), rowsOfSolver(solves, solver)));
  return new Set(rows.map((row) => row.challengeId));
}

/**
 * What still locks each challenge for a solver who has solved `solved`: the titles of its
 * published prerequisites not solved yet (an unpublished or deleted one cannot be solved,
 * so it locks nothing). A challenge that is open is absent.
 */
export function lockedChallenges(published: Pick<Challenge, "id" | "title" | "requires">[], solved: Set<string>): Record<string, string[]> {
  const titles = new Map(published.map((challenge) => [challenge.id, challenge.title]));
  const locked: Record<string, string[]> = {};
  for (const challenge of published) {
    const missing = challenge.requires.filter((id) => titles.has(id) && !solved.has(id)).map((id) => titles.get(id)!);
    if (missing.length) locked[challenge.id] = missing;
  }
  return locked;
}

const quoted = (titles: string[]) => titles.map((title) => `“${title}”`).join(", ");

/**
 * 409 when `challenge` is locked for `solver`, naming the challenges that open it. `solved`:
 * the solver's solved challenges when the caller has read them already.
 */
export async function assertUnlocked(db: Db, solver: Solver & { teamless?: boolean }, challenge: Pick<Challenge, "id" | "title" | "requires">, solved?: Set<string>): Promise<void> {
  if (challenge.requires.length === 0) return;
  const prerequisites = await db
    .select({ id: challenges.id, title: challenges.title, requires: challenges.requires })
    .from(challenges)
    .where(and(eq(challenges.ctfId, solver.ctfId), eq(challenges.status, "published")));
  const missing = lockedChallenges([...prerequisites.filter((row) => row.id !== challenge.id), challenge], solved ?? (await solvedIds(db, solver)))[challenge.id];
  if (missing) throw conflict(`Locked: solve ${quoted(missing)} first.`);
}

/**
 * The content routes' gate (files, artifacts, targets): 409 when the challenge is locked for
 * the player (in teams mode, for their team; without a team only challenges with no
 * prerequisites are open).
 */
export async function assertOpenFor(db: Db, player: Player, ctf: Pick<Ctf, "id" | "mode">, challenge: Pick<Challenge, "id" | "title" | "requires">): Promise<void> {
  if (challenge.requires.length === 0) return;
  await assertUnlocked(db, await solverOf(db, ctf, player.memberId, { requireTeam: false }), challenge);
}

/** Wrong flags `solver` has submitted for the challenge. */
async function wrongTries(db: Db, solver: Solver, challengeId: string): Promise<number> {
  const [{ n }] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(flagAttempts)
    .where(and(eq(flagAttempts.challengeId, challengeId), eq(flagAttempts.result, "incorrect"), rowsOfSolver(flagAttempts, solver)));
  return Number(n);
}

/**
 * Why a capped challenge is closed, in words that agree with the number: "the one wrong try
 * allowed … was used", "all 3 wrong tries allowed … were used" (the card says the same:
 * components/play).
 */
export function closedMessage(max: number, byTeam: boolean): string {
  const by = byTeam ? " by your team" : "";
  return max === 1 ? `Closed: the one wrong try allowed on this challenge was used${by}.` : `Closed: all ${max} wrong tries allowed on this challenge were used${by}.`;
}

/**
 * Checks a submitted flag. Order: the window (409), the challenge (404), the team (409, teams
 * mode), an earlier solve (`already_solved`, not throttled: it tells nothing), a lock (409
 * naming what opens it), the attempt cap (409 naming it), then the throttles — every other
 * submission counts against 10 per challenge per solver and against the competition's total
 * per sliding minute, correct ones included, so a full bucket answers 429 whatever the flag
 * (a 200 for the right one would be an oracle); a refused submission is neither counted nor
 * recorded. A correct flag earns the challenge's value after this solve (a dynamic one falls
 * with each solve).
 */
export async function submitFlag(db: Db, player: Player, challengeId: string, { flag }: { flag: string }, now = new Date()): Promise<FlagAttemptView> {
  return transactionWithRetry(db, async (tx) => {
    const { ctf, challenge, solver } = await runningChallenge(tx, player, challengeId, now);
    const cutoff = freezeCutoff(ctf, now);
    const record = (result: AttemptResult, submitted: string | null = null) =>
      tx.insert(flagAttempts).values({ id: newId("att"), ctfId: ctf.id, challengeId: challenge.id, memberId: player.memberId, teamId: solver.teamId, result, submitted, createdAt: now });
    const answer = async (status: AttemptResult, points: number) => ({ status, points, score: await playerScore(tx, solver, cutoff) });

    const solved = await solvedIds(tx, solver);
    if (solved.has(challenge.id)) {
      await record("already_solved");
      return answer("already_solved", 0);
    }
    await assertUnlocked(tx, solver, challenge, solved);
    if (challenge.maxAttempts !== null) {
      // One capped submission per solver at a time (the team's or the member's row): the count below stays exact.
      await tx.execute(solver.teamId ? sql`select 1 from teams where id = ${solver.teamId} for update` : sql`select 1 from members where id = ${solver.memberId} for update`);
      if ((await wrongTries(tx, solver, challenge.id)) >= challenge.maxAttempts) {
        throw conflict(closedMessage(challenge.maxAttempts, solver.teamId !== null));
      }
    }

    const total = competitionAttemptLimit();
    const decision = await postgresWindowLimiter(tx).hit([
      { key: `ctf:attempts:${solver.teamId ?? player.memberId}:${challenge.id}`, limit: FLAG_ATTEMPT_LIMIT.attempts, windowMs: FLAG_ATTEMPT_LIMIT.windowMs },
      { key: `ctf:attempts:all:${ctf.id}`, limit: total.attempts, windowMs: total.windowMs },
    ]);
    if (!decision.allowed) {
      const byCompetition = decision.buckets.some((bucket) => bucket.key.startsWith("ctf:attempts:all:") && !bucket.hasRoom);
      const what = byCompetition
        ? `Too many flags in this competition right now: at most ${total.attempts} per ${total.windowMs / 1000} seconds for all players together.`
        : `Too many flags for this challenge: at most ${FLAG_ATTEMPT_LIMIT.attempts} per ${FLAG_ATTEMPT_LIMIT.windowMs / 1000} seconds.`;
      throw new AppError("rate_limit_exceeded", `${what} Retry after ${decision.retryAfter} s.`, { retryAfter: decision.retryAfter });
    }

    if (!flagAccepts(challenge, flag)) {
      await record("incorrect", flag);
      return answer("incorrect", 0);
    }
    const points = await valueAfterSolve(tx, challenge);
    // The unique index decides between two correct submissions at once: the loser inserts nothing.
    const [inserted] = await tx
      .insert(solves)
      .values({ id: newId("sol"), ctfId: ctf.id, challengeId: challenge.id, memberId: player.memberId, teamId: solver.teamId, points, solvedAt: now })
      .onConflictDoNothing()
      .returning({ id: solves.id });
    if (!inserted) {
      await record("already_solved");
      return answer("already_solved", 0);
    }
    await record("correct");
    // Frozen: what the solve earns as players see it (the value as of the freeze), not what it tells of later solves.
    return answer("correct", cutoff ? await valueAsOf(tx, challenge, cutoff) : points);
  });
}

/**
 * The challenge's value once one more solve is counted (its `points` when static). For a
 * dynamic challenge the row is locked first (NO KEY UPDATE: flag attempts' foreign keys do not
 * wait for it), so concurrent solves count one another.
 */
async function valueAfterSolve(tx: Db, challenge: Challenge): Promise<number> {
  if (challenge.scoring.type !== "dynamic") return challenge.points;
  await tx.select({ id: challenges.id }).from(challenges).where(eq(challenges.id, challenge.id)).for("no key update");
  return challengeValue(challenge.scoring, challenge.points, (await solveCount(tx, challenge.id)) + 1);
}

/** A challenge's value as of `cutoff` (a freeze): from the solves before it (its `points` when static). */
async function valueAsOf(db: Db, challenge: Challenge, cutoff: Date): Promise<number> {
  if (challenge.scoring.type !== "dynamic") return challenge.points;
  return challengeValue(challenge.scoring, challenge.points, await solveCount(db, challenge.id, cutoff));
}


/** Unlocks hint `n` (from 1) of a challenge: its text, and its cost deducted once per solver (unlocking again, or by a teammate, costs nothing). */
export async function unlockHint(db: Db, player: Player, challengeId: string, n: number, now = new Date()): Promise<HintUnlockView> {
  return transactionWithRetry(db, async (tx) => {
    const { ctf, challenge, solver } = await runningChallenge(tx, player, challengeId, now);
    await assertUnlocked(tx, solver, challenge);
    const hint = challenge.hints[n - 1];
    if (!hint) throw notFound("Hint");
    await tx
      .insert(hintUnlocks)
      .values({ id: newId("hnt"), ctfId: ctf.id, challengeId: challenge.id, memberId: player.memberId, teamId: solver.teamId, hint: n, cost: hint.cost, unlockedAt: now })
      .onConflictDoNothing();
    return { challenge_id: challenge.id, hint: n, text: hint.text, cost: hint.cost, score: await playerScore(tx, solver, freezeCutoff(ctf, now)) };
  });
}

/** A challenge's attempt cap as the page shows it: wrong tries used and allowed; `closed` once they are all used (and it is unsolved). */
export type AttemptCap = { used: number; max: number; closed: boolean };

/**
 * What a player's own page shows: solved challenges, unlocked hints (with their text) and the
 * score — their team's in teams mode (nothing before they have one: `team_required`) — and,
 * per challenge, what locks it (titles) and its attempt cap.
 */
export async function playerProgress(db: Db, player: Player, now = new Date()) {
  const [ctf] = await db.select({ id: ctfs.id, mode: ctfs.mode, host: ctfs.host, status: ctfs.status, freezeAt: ctfs.freezeAt }).from(ctfs).where(eq(ctfs.id, player.ctfId));
  if (!ctf) throw notFound("Competition");
  const solver = await solverOf(db, ctf, player.memberId, { requireTeam: false });
  const [solved, unlockRows, published, wrongRows, score] = await Promise.all([
    solvedIds(db, solver),
    db
      .select({ challengeId: hintUnlocks.challengeId, hint: hintUnlocks.hint, hints: challenges.hints })
      .from(hintUnlocks)
      .innerJoin(challenges, eq(challenges.id, hintUnlocks.challengeId))
      .where(and(eq(hintUnlocks.ctfId, ctf.id), rowsOfSolver(hintUnlocks, solver))),
    db
      .select({ id: challenges.id, title: challenges.title, requires: challenges.requires, maxAttempts: challenges.maxAttempts })
      .from(challenges)
      .where(and(eq(challenges.ctfId, ctf.id), eq(challenges.status, "published"))),
    db
      .select({ challengeId: flagAttempts.challengeId, n: sql<number>`count(*)::int` })
      .from(flagAttempts)
      .where(and(eq(flagAttempts.ctfId, ctf.id), eq(flagAttempts.result, "incorrect"), rowsOfSolver(flagAttempts, solver)))
      .groupBy(flagAttempts.challengeId),
    solver.teamless ? 0 : playerScore(db, solver, freezeCutoff(ctf, now)),
  ]);
  const wrong = new Map(wrongRows.map((row) => [row.challengeId, Number(row.n)]));
  const caps: Record<string, AttemptCap> = {};
  for (const challenge of published) {
    if (challenge.maxAttempts === null) continue;
    const used = Math.min(wrong.get(challenge.id) ?? 0, challenge.maxAttempts);
    caps[challenge.id] = { used, max: challenge.maxAttempts, closed: used >= challenge.maxAttempts && !solved.has(challenge.id) };
  }
  return {
    score,
    team_required: solver.teamless,
    solved: [...solved],
    hints: unlockRows.map((row) => ({ challenge_id: row.challengeId, hint: row.hint, text: row.hints[row.hint - 1]?.text ?? "" })),
    locked: lockedChallenges(published, solved),
    caps,
  };
}

export type PlayerProgress = Awaited<ReturnType<typeof playerProgress>>;

/**
 * The descriptions of a competition's published challenges, for its players' page while it
 * runs; those in `locked` (the player's, from playerProgress) are left out: a locked
 * challenge's content is not handed to the page.
 */
export async function challengeDescriptions(db: Db, ctfId: string, locked: Record<string, string[]> = {}): Promise<Record<string, string>> {
  const rows = await db
    .select({ id: challenges.id, description: challenges.description })
    .from(challenges)
    .where(and(eq(challenges.ctfId, ctfId), eq(challenges.status, "published")));
  return Object.fromEntries(rows.filter((row) => !locked[row.id]).map((row) => [row.id, row.description]));
}
