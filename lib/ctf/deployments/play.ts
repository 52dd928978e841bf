import { createHash, randomBytes } from "node:crypto";
import { and, asc, count, eq, ne, sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db";
import { countRows, readPage } from "@/lib/kernel/paged";
import { transactionWithRetry } from "@/db/transaction";
import { challenges, deploymentAttempts, deploymentHintUnlocks, deploymentPlayers, deployments, deploymentSolves, type AttemptResult, type Challenge, type Deployment } from "@/db/schema";
import type { Page, Paging } from "@/lib/kernel/paging";
import { isIdShaped } from "@/lib/kernel/values";
import { config } from "@/lib/kernel/config/config";
import { AppError, conflict, notFound } from "@/lib/kernel/errors";
import { newId } from "@/lib/kernel/ids";
import { postgresWindowLimiter, type WindowRule } from "@/lib/platform/ratelimit/window";
import type { DeploymentJoinInput, DeploymentPlayerView, DeploymentSolveRecord } from "./play-schemas";
import { findDeployment } from "./deployments";
import { flagAccepts } from "@/lib/ctf/challenges/flags/flags";
import { FLAG_ATTEMPT_LIMIT } from "@/lib/ctf/play/play";
import type { FlagAttemptView, HintUnlockView } from "@/lib/ctf/play/schemas";
import { playerCookieOptions } from "@/lib/ctf/play/players";

/**
 * Playing a standalone deployment. A deployment has no members: whoever has its link enters
 * a display name and becomes its player, signed in by the HttpOnly cookie
 * `dep_player_{deployment_id}` (a random token; only its SHA-256 is stored). A player submits
 * flags and unlocks hints while the deployment is live and inside its window; every
 * submission is recorded, a solve is at most one per player, and the organiser reads the
 * solves. The flag is checked in the challenge's mode, whatever host its competition is on
 * (standalone deployments are always served by the app). The challenge's files and
 * generated artifact, under the same rules: ./deployment-content.ts.
 */

/** The `deployment_player` caller kind hands a handler this. */
export type DeploymentPlayer = { playerId: string; deploymentId: string; name: string };

/** Players one client address may become per deployment per hour (a classroom behind one NAT fits). */
export const DEPLOYMENT_JOIN_LIMIT = { perClient: 60, windowMs: 3_600_000 } as const;
/** Flags one client address may submit per deployment per minute, whichever player it is: new players do not buy new guesses. */
export const DEPLOYMENT_CLIENT_ATTEMPT_LIMIT = { attempts: 120, windowMs: 60_000 } as const;

/**
 * Flags one deployment takes per sliding minute, all players and client addresses together
 * (FLAG_ATTEMPTS_PER_DEPLOYMENT, default 300): many addresses buy no more guesses either.
 */
export function deploymentAttemptLimit(): { attempts: number; windowMs: number } {
  return { attempts: config().flagAttempts.perDeployment, windowMs: DEPLOYMENT_CLIENT_ATTEMPT_LIMIT.windowMs };
}

const TOKEN_PREFIX = "dp_";
const isTokenShaped = (token: string) => /^dp_[A-Za-z0-9_-]{43}$/.test(token);
const hashToken = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");

export function deploymentPlayerCookieName(deploymentId: string): string {
  return `dep_player_${deploymentId}`;
}

/** The cookie of a deployment's player, as a `Set-Cookie` value: the competition player's attributes. */
export function deploymentPlayerCookie(deploymentId: string, token: string): string {
  const options = playerCookieOptions();
  return [
    `${deploymentPlayerCookieName(deploymentId)}=${token}`,
    `Path=${options.path}`,
    `Max-Age=${options.maxAge}`,
    "HttpOnly",
    "SameSite=Lax",
    ...(options.secure ? ["Secure"] : []),
  ].join("; ");
}

export type LiveState = "deploying" | "live" | "ended" | "stopped" | "failed";

/** Where a deployment stands for its players: live only while `live` and inside its window. */
export function liveState(deployment: Pick<Deployment, "status" | "startsAt" | "endsAt">, now = new Date()): LiveState {
  if (deployment.status === "deploying") return "deploying";
  if (deployment.status === "deploy_failed") return "failed";
  if (deployment.status === "stopped") return "stopped";
  if (now < deployment.startsAt) return "deploying";
  return now >= deployment.endsAt ? "ended" : "live";
}

/** 409 naming why the deployment cannot be played now. */
function assertLive(deployment: Deployment, now: Date): void {
  const state = liveState(deployment, now);
  if (state === "live") return;
  if (state === "ended") throw conflict(`The challenge is no longer live: its window ended at ${deployment.endsAt.toISOString()}.`);
  if (state === "stopped") throw conflict(`The challenge is no longer live: it was stopped at ${(deployment.stoppedAt ?? deployment.endsAt).toISOString()}.`);
  if (state === "failed") throw conflict("The challenge is not live: its deployment failed.");
  throw conflict("The challenge is not live yet: it is being deployed.");
}

/**
 * The live deployment and its challenge (409 naming why when not live; unknown → 404). Writes
 * take KEY SHARE on the deployment (`lock`), so a stop in flight waits; reads (a download) need none.
 */
export async function liveChallenge(tx: Db, deploymentId: string, now: Date, { lock = true } = {}): Promise<{ deployment: Deployment; challenge: Challenge }> {
  if (!isIdShaped(deploymentId, "dep")) throw notFound("Deployment");
  const select = tx.select().from(deployments).where(eq(deployments.id, deploymentId));
  const [deployment] = lock ? await select.for("key share") : await select;
  if (!deployment) throw notFound("Deployment");
  assertLive(deployment, now);
  const [challenge] = await tx.select().from(challenges).where(eq(challenges.id, deployment.challengeId));
  if (!challenge) throw notFound("Deployment");
  return { deployment, challenge };
}

function throttled(decision: { allowed: boolean; retryAfter: number }, what: string): void {
  if (!decision.allowed) throw new AppError("rate_limit_exceeded", `${what} Retry after ${decision.retryAfter} s.`, { retryAfter: decision.retryAfter });
}

/**
 * A visitor of a live deployment becomes its player under `name`: a new player and the token
 * for the cookie (a lost cookie is a new player). At most 60 per client address per
 * deployment per hour (429 past that).
 */
export async function joinDeployment(db: Db, deploymentId: string, { name }: DeploymentJoinInput, client: string | null, now = new Date()): Promise<{ player: DeploymentPlayerView; token: string }> {
  return transactionWithRetry(db, async (tx) => {
    const { deployment } = await liveChallenge(tx, deploymentId, now);
    const rules: WindowRule[] = [{ key: `dep:join:${deployment.id}:${client ?? "unknown"}`, limit: DEPLOYMENT_JOIN_LIMIT.perClient, windowMs: DEPLOYMENT_JOIN_LIMIT.windowMs }];
    throttled(await postgresWindowLimiter(tx).hit(rules), `Too many players from this address: at most ${DEPLOYMENT_JOIN_LIMIT.perClient} per hour.`);
    const token = TOKEN_PREFIX + randomBytes(32).toString("base64url");
    const [player] = await tx
      .insert(deploymentPlayers)
      .values({ id: newId("dpl"), deploymentId: deployment.id, displayName: name, tokenHash: hashToken(token), createdAt: now })
      .returning();
    return { player: { player_id: player.id, name: player.displayName }, token };
  });
}

/** The player a cookie's token signs in to `deploymentId`, or null (unknown token, another deployment's). */
export async function findDeploymentPlayer(db: Db, deploymentId: string, token: string | undefined): Promise<DeploymentPlayer | null> {
  if (!token || !isTokenShaped(token) || !isIdShaped(deploymentId, "dep")) return null;
  const [row] = await db
    .select({ id: deploymentPlayers.id, name: deploymentPlayers.displayName })
    .from(deploymentPlayers)
    .where(and(eq(deploymentPlayers.tokenHash, hashToken(token)), eq(deploymentPlayers.deploymentId, deploymentId)));
  return row ? { playerId: row.id, deploymentId, name: row.name } : null;
}

/** A player's score on a deployment: the solve's points minus the costs of the hints unlocked. */
export async function deploymentPlayerScore(db: Db, playerId: string): Promise<number> {
  const result = await db.execute(sql`select
    (select coalesce(sum(${deploymentSolves.points}), 0) from ${deploymentSolves} where ${deploymentSolves.playerId} = ${playerId})
    - (select coalesce(sum(${deploymentHintUnlocks.cost}), 0) from ${deploymentHintUnlocks} where ${deploymentHintUnlocks.playerId} = ${playerId}) as score`);
  return Number(rowsOf<{ score: number | string }>(result)[0].score);
}

/**
 * Checks a flag for the deployment's challenge, as the competition's attempts do: the window
 * (409), an earlier solve (`already_solved`, not throttled), then the throttles — 10 per
 * player per sliding minute (the competition's), 120 per client address per deployment
 * (a new player buys no new guesses) and the deployment's total (nor do new addresses) —
 * counted for every other submission, the correct one included (no oracle); a refused one is
 * neither counted nor recorded.
 */
export async function submitDeploymentFlag(db: Db, player: DeploymentPlayer, { flag }: { flag: string }, client: string | null, now = new Date()): Promise<FlagAttemptView> {
  return transactionWithRetry(db, async (tx) => {
    const { deployment, challenge } = await liveChallenge(tx, player.deploymentId, now);
    const record = (result: AttemptResult, submitted: string | null = null) =>
      tx.insert(deploymentAttempts).values({ id: newId("dat"), deploymentId: deployment.id, playerId: player.playerId, result, submitted, createdAt: now });
    const answer = async (status: AttemptResult, points: number) => ({ status, points, score: await deploymentPlayerScore(tx, player.playerId) });

    const [solved] = await tx.select({ id: deploymentSolves.id }).from(deploymentSolves).where(eq(deploymentSolves.playerId, player.playerId));
    if (solved) {
      await record("already_solved");
      return answer("already_solved", 0);
    }
    const total = deploymentAttemptLimit();
    const decision = await postgresWindowLimiter(tx).hit([
      { key: `dep:attempts:${player.playerId}`, limit: FLAG_ATTEMPT_LIMIT.attempts, windowMs: FLAG_ATTEMPT_LIMIT.windowMs },
      { key: `dep:attempts:ip:${deployment.id}:${client ?? "unknown"}`, limit: DEPLOYMENT_CLIENT_ATTEMPT_LIMIT.attempts, windowMs: DEPLOYMENT_CLIENT_ATTEMPT_LIMIT.windowMs },
      { key: `dep:attempts:all:${deployment.id}`, limit: total.attempts, windowMs: total.windowMs },
    ]);
    const full = (prefix: string) => decision.buckets.some((bucket) => bucket.key.startsWith(prefix) && !bucket.hasRoom);
    throttled(
      decision,
      full("dep:attempts:all:")
        ? `Too many flags for this challenge right now: at most ${total.attempts} per ${total.windowMs / 1000} seconds for all players together.`
        : full("dep:attempts:ip:")
          ? `Too many flags from this address: at most ${DEPLOYMENT_CLIENT_ATTEMPT_LIMIT.attempts} per ${DEPLOYMENT_CLIENT_ATTEMPT_LIMIT.windowMs / 1000} seconds.`
          : `Too many flags: at most ${FLAG_ATTEMPT_LIMIT.attempts} per ${FLAG_ATTEMPT_LIMIT.windowMs / 1000} seconds.`,
    );

    if (!flagAccepts(challenge, flag)) {
      await record("incorrect", flag);
      return answer("incorrect", 0);
    }
    // The unique index decides between two correct submissions at once: the loser inserts nothing.
    const [inserted] = await tx
      .insert(deploymentSolves)
      .values({ id: newId("dso"), deploymentId: deployment.id, playerId: player.playerId, points: challenge.points, solvedAt: now })
      .onConflictDoNothing()
      .returning({ id: deploymentSolves.id });
    if (!inserted) {
      await record("already_solved");
      return answer("already_solved", 0);
    }
    await record("correct");
    return answer("correct", challenge.points);
  });
}

/** Unlocks hint `n` (from 1) of the deployment's challenge: its text, its cost deducted once. */
export async function unlockDeploymentHint(db: Db, player: DeploymentPlayer, n: number, now = new Date()): Promise<HintUnlockView> {
  return transactionWithRetry(db, async (tx) => {
    const { deployment, challenge } = await liveChallenge(tx, player.deploymentId, now);
    const hint = challenge.hints[n - 1];
    if (!hint) throw notFound("Hint");
    await tx
      .insert(deploymentHintUnlocks)
      .values({ id: newId("dhu"), deploymentId: deployment.id, playerId: player.playerId, hint: n, cost: hint.cost, unlockedAt: now })
      .onConflictDoNothing();
    return { challenge_id: challenge.id, hint: n, text: hint.text, cost: hint.cost, score: await deploymentPlayerScore(tx, player.playerId) };
  });
}

/** What a player's page shows: solved or not, the hints unlocked (their text) and the score. */
export async function deploymentProgress(db: Db, player: DeploymentPlayer) {
  const [[solve], unlockRows, score] = await Promise.all([
    db.select({ id: deploymentSolves.id }).from(deploymentSolves).where(eq(deploymentSolves.playerId, player.playerId)),
    db
      .select({ hint: deploymentHintUnlocks.hint, hints: challenges.hints })
      .from(deploymentHintUnlocks)
      .innerJoin(deployments, eq(deployments.id, deploymentHintUnlocks.deploymentId))
      .innerJoin(challenges, eq(challenges.id, deployments.challengeId))
      .where(eq(deploymentHintUnlocks.playerId, player.playerId)),
    deploymentPlayerScore(db, player.playerId),
  ]);
  return { score, solved: Boolean(solve), hints: Object.fromEntries(unlockRows.map((row) => [row.hint, row.hints[row.hint - 1]?.text ?? ""])) as Record<number, string> };
}

/**
 * Who solved a workspace's deployment (`GET /api/v1/deployments/{deployment_id}/solves`),
 * first solver first: the name, the points, what their hints cost, the score and how many
 * flags it took.
 */
export async function listDeploymentSolves(db: Db, workspaceId: string, deploymentId: string, paging: Paging): Promise<Page<DeploymentSolveRecord>> {
  const deployment = await findDeployment(db, workspaceId, deploymentId);
  const where = eq(deploymentSolves.deploymentId, deployment.id);
  const hintsCost = sql<number>`coalesce((select sum(u.cost) from ${deploymentHintUnlocks} u where u.player_id = ${deploymentSolves.playerId}), 0)::int`;
  const attempts = db
    .select({ playerId: deploymentAttempts.playerId, n: count().as("n") })
    .from(deploymentAttempts)
    .where(and(eq(deploymentAttempts.deploymentId, deployment.id), ne(deploymentAttempts.result, "already_solved")))
    .groupBy(deploymentAttempts.playerId)
    .as("tries");
  return readPage(
    paging,
    db
      .select({ solve: deploymentSolves, name: deploymentPlayers.displayName, hintsCost, attempts: sql<number>`coalesce(${attempts.n}, 0)::int` })
      .from(deploymentSolves)
      .innerJoin(deploymentPlayers, eq(deploymentPlayers.id, deploymentSolves.playerId))
      .leftJoin(attempts, eq(attempts.playerId, deploymentSolves.playerId))
      .where(where)
      .orderBy(asc(deploymentSolves.solvedAt), asc(deploymentSolves.id)),
    countRows(db, deploymentSolves, where),
    ({ solve, name, hintsCost: cost, attempts: tries }) => ({
      player_id: solve.playerId,
      name,
      points: solve.points,
      hints_cost: Number(cost),
      score: solve.points - Number(cost),
      attempts: Number(tries),
      solved_at: solve.solvedAt.toISOString(),
    }),
  );
}
