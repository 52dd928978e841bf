import type { FlagMode } from "@/db/schema";
import type { CompetitionHost, HostFile, HostSolve, HostStandings, StandingsContext } from "./types";
import { HostError } from "./types";

export type CtfdConfig = { url: string; token: string; timeoutMs?: number };

/** CTFd's flag types for ours: a static flag (case-insensitive through its `data`), or a regex (CTFd matches it whole). */
function ctfdFlagKind(mode: FlagMode): { type: "static" | "regex"; data: string } {
  if (mode === "regex") return { type: "regex", data: "" };
  return { type: "static", data: mode === "case_insensitive" ? "case_insensitive" : "" };
}

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

/**
 * CTFd through its REST API (`/api/v1`, `Authorization: Token …`): a competition is the
 * configured CTFd instance; publishing creates the challenge with its flag, hints and files,
 * and unpublishing hides it. Standalone deployments are served by the app (CTFd has no
 * per-challenge deployments).
 */
export function ctfdHost(config: CtfdConfig, fallbackUrl: (deploymentId: string) => string): CompetitionHost {
  const base = config.url.replace(/\/+$/, "");

  async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
    return (await call<{ data?: T }>(method, path, body)).data as T;
  }

  /**
   * The whole answer (a paginated read's `meta` too); 404 → null when `missingIsNull`. A
   * `FormData` body is sent as `multipart/form-data` (fetch writes the boundary), anything
   * else as JSON. CTFd uses an API token only on those two types (3.6.0 and later for
   * multipart); it wants `application/json` even on a read without a body.
   */
  async function call<T>(method: string, path: string, body?: unknown, options: { missingIsNull?: boolean } = {}): Promise<T> {
    const multipart = body instanceof FormData;
    const send = () =>
      fetch(`${base}/api/v1${path}`, {
        method,
        headers: { Authorization: `Token ${config.token}`, ...(multipart ? {} : { "Content-Type": "application/json" }), Accept: "application/json" },
        body: multipart ? body : body === undefined ? undefined : JSON.stringify(body),
        redirect: "manual",
        signal: AbortSignal.timeout(config.timeoutMs ?? 10_000),
      });
    let response: Response;
    try {
      // A read is sent again once when the connection broke before an answer (a kept-alive
      // socket the server had closed): it changes nothing. A change is never sent twice.
      response = await send().catch((error: { cause?: { code?: string } }) => {
        if (method === "GET" && ["UND_ERR_SOCKET", "ECONNRESET", "EPIPE"].includes(error.cause?.code ?? "")) return send();
        throw error;
      });
    } catch (error) {
      // fetch says only "fetch failed"; its cause says why (ECONNREFUSED, a timeout…).
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new HostError(`CTFd is unreachable: ${(error as Error).message}${cause?.code || cause?.message ? ` (${cause.code ?? cause.message})` : ""}`);
    }
    const payload = (await response.json().catch(() => undefined)) as ({ success?: boolean; errors?: unknown } & T) | undefined;
    if (options.missingIsNull && response.status === 404) return null as T;
    if (!response.ok || !payload?.success) {
      throw new HostError(`CTFd answered ${response.status} to ${method} ${path}${payload?.errors ? `: ${JSON.stringify(payload.errors)}` : ""}`);
    }
    return payload;
  }

  /**
   * Uploads one file to CTFd's challenge `platformChallengeId` (`POST /api/v1/files`,
   * `type=challenge`) and records CTFd's id at once. If another run recorded a copy first,
   * or recording fails, the copy just made is deleted again (best effort when recording
   * failed: at worst a duplicate stays), so a retry never leaves two.
   */
  async function uploadFile(platformChallengeId: number, file: HostFile): Promise<void> {
    const form = new FormData();
    form.set("challenge", String(platformChallengeId));
    form.set("type", "challenge");
    form.set("file", new Blob([(await file.bytes()) as Uint8Array<ArrayBuffer>], { type: file.contentType }), file.name);
    const [uploaded] = (await request<{ id?: unknown }[] | undefined>("POST", "/files", form)) ?? [];
    if (typeof uploaded?.id !== "number" || !Number.isInteger(uploaded.id)) throw new HostError("CTFd answered an upload without a file id.");
    const id = uploaded.id;
    let kept: boolean;
    try {
      kept = await file.record(id);
    } catch (error) {
      await removeFile(id).catch(() => undefined);
      throw error;
    }
    if (!kept) await removeFile(id);
  }

  /** `DELETE /api/v1/files/{id}`; a file CTFd no longer has (404) is already removed. */
  async function removeFile(platformFileId: number): Promise<void> {
    await call("DELETE", `/files/${platformFileId}`, undefined, { missingIsNull: true });
  }

  /** A user account's address (the admin view of `GET /api/v1/users/{id}`), cached a while; null when CTFd has none. */
  async function emailOf(accountId: number): Promise<string | null> {
    const key = `${base} ${accountId}`;
    const cached = emailCache.get(key);
    if (cached && Date.now() - cached.at < EMAIL_TTL_MS) return cached.email;
    const user = await call<{ data?: { email?: unknown } } | null>("GET", `/users/${accountId}`, undefined, { missingIsNull: true });
    const email = typeof user?.data?.email === "string" ? user.data.email.trim().toLowerCase() : null;
    if (emailCache.size >= EMAIL_CACHE_MAX) emailCache.clear();
    emailCache.set(key, { email, at: Date.now() });
    return email;
  }

  /** Submissions of a challenge (of one type): the total of CTFd's paginated list, one row fetched. */
  async function submissionCount(platformId: number, type?: "correct"): Promise<number> {
    const answer = await call<CtfdPage>("GET", `/submissions?challenge_id=${platformId}&per_page=1${type ? `&type=${type}` : ""}`);
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
  async function readStandings(context: StandingsContext): Promise<HostStandings> {
    const board = (await request<CtfdScoreEntry[]>("GET", "/scoreboard")) ?? [];
    const hosted = context.challenges.filter((challenge) => challenge.platformChallengeId !== null);
    const solveLists = await mapLimited(hosted, READ_CONCURRENCY, async (challenge) => {
      const answer = await call<{ data?: CtfdSolve[] } | null>("GET", `/challenges/${challenge.platformChallengeId}/solves`, undefined, { missingIsNull: true });
      return answer?.data ?? [];
    });
    const users = board.filter((entry) => (entry.account_type ?? "user") === "user");
    const emails = new Map((await mapLimited(users, READ_CONCURRENCY, async (entry) => [entry.account_id, await emailOf(entry.account_id)] as const)).filter(([, email]) => email));
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
      attempts: await submissionCount(challenge.platformChallengeId!),
      correct: await submissionCount(challenge.platformChallengeId!, "correct"),
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

  return {
    kind: "ctfd",
    async deployCompetition() {
      await request("GET", "/challenges?view=admin");
      return { url: base };
    },
    async teardownCompetition() {},
    async publishChallenge(_ctf, challenge, flag, files) {
      if (challenge.platformChallengeId) {
        // Back from hidden: files added while it was unpublished and not yet uploaded go first.
        for (const file of files) await uploadFile(challenge.platformChallengeId, file);
        await request("PATCH", `/challenges/${challenge.platformChallengeId}`, { state: "visible" });
        return { platformChallengeId: challenge.platformChallengeId };
      }
      // Created hidden, made visible only once its flag, hints and files are in: players never
      // see a challenge they cannot solve. A failure in between deletes it, its files with it
      // (best effort; at worst a hidden orphan stays), so the retry creates exactly one.
      const created = await request<{ id: number }>("POST", "/challenges", {
        name: challenge.title,
        category: challenge.category,
        description: challenge.description,
        value: challenge.points,
        type: "standard",
        state: "hidden",
      });
      try {
        await request("POST", "/flags", { challenge: created.id, content: flag, ...ctfdFlagKind(challenge.flagMode) });
        for (const hint of challenge.hints) await request("POST", "/hints", { challenge: created.id, content: hint.text, cost: hint.cost });
        for (const file of files) await uploadFile(created.id, file);
        await request("PATCH", `/challenges/${created.id}`, { state: "visible" });
      } catch (error) {
        await request("DELETE", `/challenges/${created.id}`).catch(() => undefined);
        throw error;
      }
      return { platformChallengeId: created.id };
    },
    async unpublishChallenge(_ctf, challenge) {
      if (!challenge.platformChallengeId) throw new HostError("The challenge has no CTFd id.");
      await request("PATCH", `/challenges/${challenge.platformChallengeId}`, { state: "hidden" });
    },
    async addChallengeFile(_ctf, challenge, file) {
      if (!challenge.platformChallengeId) throw new HostError("The challenge has no CTFd id.");
      await uploadFile(challenge.platformChallengeId, file);
    },
    async removeChallengeFile(platformFileId) {
      await removeFile(platformFileId);
    },
    async deployChallenge(deployment) {
      return { url: fallbackUrl(deployment.id) };
    },
    async stopChallenge() {},
    async readStandings(_ctf, context) {
      return readStandings(context);
    },
  };
}
