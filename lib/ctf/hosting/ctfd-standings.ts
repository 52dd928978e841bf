import type { CtfdClient } from "./ctfd-client";
import type { HostSolve, HostStandings, StandingsContext } from "./types";
import { HostError } from "./types";

/** `GET /api/v1/scoreboard`: CTFd's ranking (its awards, hint unlocks among them, included in `score`). */
type CtfdScoreEntry = { pos: number; account_id: number; account_type?: string; name: string; score: number };
/** `GET /api/v1/challenges/{id}/solves`, oldest first. */
type CtfdSolve = { account_id: number; name: string; date: string };
type CtfdPage = { meta?: { pagination?: { total?: number } }; data?: unknown[] };

/** How many reads of CTFd run at once while the standings are gathered. */
const READ_CONCURRENCY = 4;
/** A CTFd account's address rarely changes: kept this long per instance, so a scoreboard read does not look every account up again. */
const EMAIL_TTL_MS = 10 * 60_000;
const emailCache = new Map<string, { email: string | null; at: number }>();
/** Past this many accounts the cache starts over (a bound on memory, not a policy). */
const EMAIL_CACHE_MAX = 20_000;

/** CTFd's dates (`isoformat`, microseconds, `Z`) in our form; one without an offset is UTC. */
function ctfdDate(value: string): string {
  const date = new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value}Z`);
  if (Number.isNaN(date.getTime())) throw new HostError(`CTFd answered a date that is not one: ${JSON.stringify(value).slice(0, 60)}`);
  return date.toISOString();
}

async function mapLimited<T, R>(items: T[], limit: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await run(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** A user account's address (the admin view of `GET /api/v1/users/{id}`), cached a while; null when CTFd has none. */
async function emailOf(client: CtfdClient, accountId: number): Promise<string | null> {
  const key = `${client.base} ${accountId}`;
  const cached = emailCache.get(key);
  if (cached && Date.now() - cached.at < EMAIL_TTL_MS) return cached.email;
  const user = await client.call<{ data?: { email?: unknown } } | null>("GET", `/users/${accountId}`, undefined, { missingIsNull: true });
  const email = typeof user?.data?.email === "string" ? user.data.email.trim().toLowerCase() : null;
  if (emailCache.size >= EMAIL_CACHE_MAX) emailCache.clear();
  emailCache.set(key, { email, at: Date.now() });
  return email;
}

/** Submissions of a challenge (of one type): the total of CTFd's paginated list, one row fetched. */
async function submissionCount(client: CtfdClient, platformId: number, type?: "correct"): Promise<number> {
  const answer = await client.call<CtfdPage>("GET", `/submissions?challenge_id=${platformId}&per_page=1${type ? `&type=${type}` : ""}`);
  const total = answer.meta?.pagination?.total;
  return typeof total === "number" ? total : (answer.data?.length ?? 0);
}

/**
 * The standings from CTFd's own API: positions, names and scores from `/api/v1/scoreboard`
 * (a competition is the CTFd instance, so this is its ranking, hint costs included); solves
 * and their times from each of the competition's challenges (`/challenges/{id}/solves`);
 * attempts from the submissions' counts. Accounts are matched to members by address (the
 * admin view of `/users/{id}`); in teams mode an account is a team and matches nobody.
 */
export async function readCtfdStandings(client: CtfdClient, context: StandingsContext): Promise<HostStandings> {
  const board = (await client.request<CtfdScoreEntry[]>("GET", "/scoreboard")) ?? [];
  const hosted = context.challenges.filter((challenge) => challenge.platformChallengeId !== null);
  const solveLists = await mapLimited(hosted, READ_CONCURRENCY, async (challenge) => {
    const answer = await client.call<{ data?: CtfdSolve[] } | null>("GET", `/challenges/${challenge.platformChallengeId}/solves`, undefined, { missingIsNull: true });
    return answer?.data ?? [];
  });
  const users = board.filter((entry) => (entry.account_type ?? "user") === "user");
  const emails = new Map((await mapLimited(users, READ_CONCURRENCY, async (entry) => [entry.account_id, await emailOf(client, entry.account_id)] as const)).filter(([, email]) => email));
  const memberByEmail = new Map(context.members.map((member) => [member.email.trim().toLowerCase(), member.id]));
  const memberOf = (accountId: number) => {
    const email = emails.get(accountId);
    return email ? (memberByEmail.get(email) ?? null) : null;
  };

  const solves: HostSolve[] = hosted
    .flatMap((challenge, index) =>
      solveLists[index].map((solve) => ({ member_id: memberOf(solve.account_id), platform_account_id: solve.account_id, challenge_id: challenge.id, points: challenge.points, solved_at: ctfdDate(solve.date) })),
    )
    .sort((a, b) => a.solved_at.localeCompare(b.solved_at));
  const attempts = await mapLimited(hosted, READ_CONCURRENCY, async (challenge) => ({
    challenge_id: challenge.id,
    attempts: await submissionCount(client, challenge.platformChallengeId!),
    correct: await submissionCount(client, challenge.platformChallengeId!, "correct"),
  }));
  const scores = board.map((entry) => {
    const own = solves.filter((solve) => solve.platform_account_id === entry.account_id);
    return {
      pos: entry.pos,
      member_id: memberOf(entry.account_id),
      platform_account_id: entry.account_id,
      name: entry.name,
      email: emails.get(entry.account_id) ?? null,
      score: Math.trunc(entry.score),
      solves: own.length,
      last_solve_at: own.at(-1)?.solved_at ?? null,
    };
  });
  return { scores, solves, attempts: attempts.filter((row) => row.attempts > 0) };
}
