import { and, eq } from "drizzle-orm";
import type { Db } from "@/db";
import { transactionWithRetry } from "@/db/transaction";
import { challenges, ctfs, flagAttempts, hintUnlocks, solves, type AttemptResult, type Challenge, type Ctf } from "@/db/schema";
import { config } from "@/lib/kernel/config/config";
import { AppError, conflict, notFound } from "@/lib/kernel/errors";
import { newId } from "@/lib/kernel/ids";
import { postgresWindowLimiter } from "@/lib/platform/ratelimit/window";
import { flagAccepts } from "@/lib/ctf/challenges/flags/flags";
import type { FlagAttemptView, HintUnlockView } from "./schemas";
import type { Player } from "./players";
import { playerScore } from "./scoreboard";

/**
 * Playing a competition: a joined player submits flags and unlocks hints, only while the
 * competition runs (deployed, and between starts_at and ends_at). Every submission is
 * recorded; a solve is at most one per player and challenge (a unique index), so two
 * correct submissions at once make one solve and the other answers `already_solved`.
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
 * so its snapshot sees every solve) and one of its published challenges; another
 * competition's challenge is a 404 like a missing one.
 */
async function runningChallenge(tx: Db, player: Player, challengeId: string, now: Date): Promise<{ ctf: Ctf; challenge: Challenge }> {
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
  return { ctf, challenge };
}

/**
 * Checks a submitted flag. Order: the window (409), the challenge (404), an earlier solve
 * (`already_solved`, not throttled: it tells nothing), then the throttles — every other
 * submission counts against 10 per challenge per player and against the competition's
 * total per sliding minute, correct ones included, so a full bucket answers 429 whatever the
 * flag (a 200 for the right one would be an oracle); a refused submission is neither
 * counted nor recorded.
 */
export async function submitFlag(db: Db, player: Player, challengeId: string, { flag }: { flag: string }, now = new Date()): Promise<FlagAttemptView> {
  return transactionWithRetry(db, async (tx) => {
    const { ctf, challenge } = await runningChallenge(tx, player, challengeId, now);
    const record = (result: AttemptResult, submitted: string | null = null) =>
      tx.insert(flagAttempts).values({ id: newId("att"), ctfId: ctf.id, challengeId: challenge.id, memberId: player.memberId, result, submitted, createdAt: now });
    const answer = async (status: AttemptResult, points: number) => ({ status, points, score: await playerScore(tx, player.memberId) });

    const [solved] = await tx.select({ id: solves.id }).from(solves).where(and(eq(solves.memberId, player.memberId), eq(solves.challengeId, challenge.id)));
    if (solved) {
      await record("already_solved");
      return answer("already_solved", 0);
    }

    const total = competitionAttemptLimit();
    const decision = await postgresWindowLimiter(tx).hit([
      { key: `ctf:attempts:${player.memberId}:${challenge.id}`, limit: FLAG_ATTEMPT_LIMIT.attempts, windowMs: FLAG_ATTEMPT_LIMIT.windowMs },
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
    // The unique index decides between two correct submissions at once: the loser inserts nothing.
    const [inserted] = await tx
      .insert(solves)
      .values({ id: newId("sol"), ctfId: ctf.id, challengeId: challenge.id, memberId: player.memberId, points: challenge.points, solvedAt: now })
      .onConflictDoNothing()
      .returning({ id: solves.id });
    if (!inserted) {
      await record("already_solved");
      return answer("already_solved", 0);
    }
    await record("correct");
    return answer("correct", challenge.points);
  });
}

/** Unlocks hint `n` (from 1) of a challenge: its text, and its cost deducted once (unlocking again costs nothing). */
export async function unlockHint(db: Db, player: Player, challengeId: string, n: number, now = new Date()): Promise<HintUnlockView> {
  return transactionWithRetry(db, async (tx) => {
    const { ctf, challenge } = await runningChallenge(tx, player, challengeId, now);
    const hint = challenge.hints[n - 1];
    if (!hint) throw notFound("Hint");
    await tx
      .insert(hintUnlocks)
      .values({ id: newId("hnt"), ctfId: ctf.id, challengeId: challenge.id, memberId: player.memberId, hint: n, cost: hint.cost, unlockedAt: now })
      .onConflictDoNothing();
    return { challenge_id: challenge.id, hint: n, text: hint.text, cost: hint.cost, score: await playerScore(tx, player.memberId) };
  });
}

/** What a player's own page shows: solved challenges, unlocked hints (with their text) and the score. */
export async function playerProgress(db: Db, player: Player) {
  const [solvedRows, unlockRows, score] = await Promise.all([
    db.select({ challengeId: solves.challengeId }).from(solves).where(eq(solves.memberId, player.memberId)),
    db
      .select({ challengeId: hintUnlocks.challengeId, hint: hintUnlocks.hint, hints: challenges.hints })
      .from(hintUnlocks)
      .innerJoin(challenges, eq(challenges.id, hintUnlocks.challengeId))
      .where(eq(hintUnlocks.memberId, player.memberId)),
    playerScore(db, player.memberId),
  ]);
  return {
    score,
    solved: solvedRows.map((row) => row.challengeId),
    hints: unlockRows.map((row) => ({ challenge_id: row.challengeId, hint: row.hint, text: row.hints[row.hint - 1]?.text ?? "" })),
  };
}

/** The descriptions of a competition's published challenges, for its players' page while it runs. */
export async function challengeDescriptions(db: Db, ctfId: string): Promise<Record<string, string>> {
  const rows = await db
    .select({ id: challenges.id, description: challenges.description })
    .from(challenges)
    .where(and(eq(challenges.ctfId, ctfId), eq(challenges.status, "published")));
  return Object.fromEntries(rows.map((row) => [row.id, row.description]));
}
