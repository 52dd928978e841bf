import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db";
import { challenges, ctfs, members, type Ctf, type CtfSnapshot } from "@/db/schema";
import { offsetOf, page, type Page, type Paging } from "@/lib/kernel/paging";
import { isIdShaped } from "@/lib/kernel/values";
import { AppError, notFound } from "@/lib/kernel/errors";
import { describeHostError, hostFor, type HostStandings } from "@/lib/ctf/hosting";
import type { PublicScoreboard, ScoreboardEntry } from "./schemas";
import { defaultPlayerName } from "@/lib/ctf/competitions/views";
import { builtinStandings, scoreboardPage, type Standing, type StandingSolve, type Standings } from "./scoreboard";

/**
 * A competition's scoreboard whatever its host and state: an archived competition answers
 * its snapshot (the final scoreboard, as settled); the built-in host ranks our own tables
 * (lib/ctf/play/scoreboard.ts); an external host (CTFd) is read through its API
 * (`CompetitionHost.readStandings`), its accounts matched to members by address.
 */

/** How long the public page's reads of an external host's standings are shared (every visitor polls every 5 s). */
export const PUBLIC_STANDINGS_MAX_AGE_MS = 15_000;
const recent = new Map<string, { at: number; standings: Promise<HostStandings> }>();

/**
 * The host's standings of a competition (its challenges and members handed over to match
 * them). A host that fails → 503 naming it, so the caller changes nothing. `maxAgeMs`: a
 * read that recent is shared (the public page), never a failed one.
 */
export async function readHostStandings(db: Db, ctf: Ctf, options: { maxAgeMs?: number } = {}): Promise<HostStandings> {
  const cached = recent.get(ctf.id);
  if (options.maxAgeMs && cached && Date.now() - cached.at < options.maxAgeMs) return cached.standings;
  const read = (async () => {
    const [challengeRows, memberRows] = await Promise.all([
      db.select({ id: challenges.id, points: challenges.points, platformChallengeId: challenges.platformChallengeId }).from(challenges).where(eq(challenges.ctfId, ctf.id)),
      db.select({ id: members.id, email: members.email }).from(members).where(eq(members.ctfId, ctf.id)),
    ]);
    try {
      return await hostFor(ctf.host, db, builtinStandings).readStandings(ctf, { challenges: challengeRows, members: memberRows });
    } catch (error) {
      throw new AppError("service_unavailable", `The hosting platform failed: ${describeHostError(error)}. Nothing was changed; try again.`, { retryAfter: 5 });
    }
  })();
  // Old entries go as new ones come: the map holds only competitions read lately.
  for (const [id, entry] of recent) if (Date.now() - entry.at > PUBLIC_STANDINGS_MAX_AGE_MS) recent.delete(id);
  recent.set(ctf.id, { at: Date.now(), standings: read });
  read.catch(() => {
    if (recent.get(ctf.id)?.standings === read) recent.delete(ctf.id);
  });
  return read;
}

/**
 * First blood on standings that do not mark it (an external host's, a snapshot taken before
 * the mark existed): each challenge's first solve in the list's order (oldest first; the
 * built-in host breaks a tie in time by the solve's id, marked in SQL: ./scoreboard.ts).
 */
export function withFirstBlood(standings: Pick<HostStandings, "scores" | "solves">): Pick<Standings, "scores" | "solves"> {
  const seen = new Set<string>();
  const solves = [...standings.solves]
    .sort((a, b) => a.solved_at.localeCompare(b.solved_at))
    .map((solve) => {
      const first = !seen.has(solve.challenge_id);
      seen.add(solve.challenge_id);
      return { ...solve, team_id: solve.team_id ?? null, first_blood: solve.first_blood ?? first };
    });
  const bloodOf = new Map<string, string[]>();
  for (const solve of solves) if (solve.first_blood) bloodOf.set(solverKey(solve), [...(bloodOf.get(solverKey(solve)) ?? []), solve.challenge_id]);
  const scores = standings.scores.map((entry) => ({
    ...entry,
    team_id: entry.team_id ?? null,
    first_blood: entry.first_blood ?? bloodOf.get(solverKey(entry)) ?? [],
  }));
  return { scores, solves };
}

/** Whose entry or solve it is: the team, the member, or an external host's account no member matches. */
export const solverKey = (entry: { team_id?: string | null; member_id: string | null; platform_account_id?: number }) => entry.team_id ?? entry.member_id ?? `account:${entry.platform_account_id}`;

/** A standing as the scoreboard shows it: never the address. */
export function toScoreboardEntry({ email: _email, ...entry }: Standing): ScoreboardEntry {
  return entry;
}

/** The final scoreboard kept in a snapshot (older snapshots had only addresses and scores: positions and names are derived). */
export function snapshotScoreboard(snapshot: CtfSnapshot): ScoreboardEntry[] {
  const entries = snapshot.scores.map((score, index) => ({
    pos: score.pos ?? index + 1,
    member_id: score.member_id,
    ...(score.team_id !== undefined ? { team_id: score.team_id } : {}),
    ...(score.platform_account_id !== undefined ? { platform_account_id: score.platform_account_id } : {}),
    name: score.name ?? defaultPlayerName(score.email ?? ""),
    email: null,
    score: score.score,
    solves: score.solves ?? 0,
    last_solve_at: score.last_solve_at ?? null,
    ...(score.first_blood ? { first_blood: score.first_blood } : {}),
  }));
  return withFirstBlood({ scores: entries, solves: snapshot.solves ?? [] }).scores.map(toScoreboardEntry);
}

/**
 * The moment a competition's public standings stand at: its `freeze_at` once passed, on the
 * built-in host and until archived (the snapshot is final and whole); else null (live). CTFd
 * applies its own freeze (the setting is passed to it).
 */
export function freezeCutoff(ctf: Pick<Ctf, "host" | "status" | "freezeAt">, now = new Date()): Date | null {
  if (ctf.host !== "builtin" || ctf.status === "archived" || !ctf.freezeAt) return null;
  return ctf.freezeAt <= now ? ctf.freezeAt : null;
}

function slice(entries: ScoreboardEntry[], paging: Paging): Page<ScoreboardEntry> {
  const offset = offsetOf(paging);
  return page(entries.slice(offset, offset + paging.per_page), paging, entries.length);
}

async function scoreboardOf(db: Db, ctf: Ctf, paging: Paging, options: { maxAgeMs: number; cutoff: Date | null }): Promise<Page<ScoreboardEntry>> {
  if (ctf.status === "archived" && ctf.snapshot) return slice(snapshotScoreboard(ctf.snapshot), paging);
  if (ctf.host === "builtin") return scoreboardPage(db, { ctfId: ctf.id, mode: ctf.mode, cutoff: options.cutoff }, paging);
  const standings = await readHostStandings(db, ctf, { maxAgeMs: options.maxAgeMs });
  return slice(withFirstBlood(standings).scores.map(toScoreboardEntry), paging);
}

/** The scoreboard of a workspace's competition (`GET /api/v1/ctfs/{ctf_id}/scoreboard`): live, never frozen; an external host is read afresh. */
export async function workspaceScoreboard(db: Db, workspaceId: string, ctfId: string, paging: Paging): Promise<Page<ScoreboardEntry>> {
  if (!isIdShaped(ctfId, "ctf")) throw notFound("Competition");
  const [ctf] = await db.select().from(ctfs).where(and(eq(ctfs.id, ctfId), eq(ctfs.workspaceId, workspaceId)));
  if (!ctf) throw notFound("Competition");
  return scoreboardOf(db, ctf, paging, { maxAgeMs: 0, cutoff: null });
}

/** The competition states whose page (and scoreboard) is public: running or about to, ended, or archived. */
export const publicCtfStatuses = ["deployed", "archived"] as const;

/** A competition whose page is public (deployed or archived); else 404. */
export async function publicCtf(db: Db, ctfId: string): Promise<Ctf> {
  if (!isIdShaped(ctfId, "ctf")) throw notFound("Competition");
  const [ctf] = await db
    .select()
    .from(ctfs)
    .where(and(eq(ctfs.id, ctfId), inArray(ctfs.status, [...publicCtfStatuses])));
  if (!ctf) throw notFound("Competition");
  return ctf;
}

/**
 * The scoreboard of the public page (`GET /api/c/{ctf_id}/scoreboard`): a deployed
 * competition's current one — as of `freeze_at` once that has passed (`frozen_at`) — an
 * archived competition's final one (its snapshot); anything else (a draft, a stopped
 * instance) is a 404.
 */
export async function publicScoreboard(db: Db, ctfId: string, paging: Paging, now = new Date()): Promise<PublicScoreboard> {
  const ctf = await publicCtf(db, ctfId);
  const cutoff = freezeCutoff(ctf, now);
  const board = await scoreboardOf(db, ctf, paging, { maxAgeMs: PUBLIC_STANDINGS_MAX_AGE_MS, cutoff });
  return { ...board, frozen_at: cutoff?.toISOString() ?? null };
}

/**
 * The whole public standings of a competition, unpaginated (CTFtime's feed, the score graph):
 * the snapshot's once archived; on the built-in host our tables as of the freeze, if passed;
 * else the host's (read afresh unless `maxAgeMs`). Solves oldest first, with first bloods.
 */
export async function publicStandings(db: Db, ctf: Ctf, options: { maxAgeMs?: number; now?: Date } = {}): Promise<{ scores: ScoreboardEntry[]; solves: StandingSolve[]; frozenAt: Date | null }> {
  if (ctf.status === "archived" && ctf.snapshot) {
    return { scores: snapshotScoreboard(ctf.snapshot), solves: withFirstBlood({ scores: [], solves: ctf.snapshot.solves ?? [] }).solves, frozenAt: null };
  }
  const cutoff = freezeCutoff(ctf, options.now);
  const standings = ctf.host === "builtin" ? await builtinStandings(db, ctf.id, cutoff) : withFirstBlood(await readHostStandings(db, ctf, { maxAgeMs: options.maxAgeMs }));
  return { scores: standings.scores.map(toScoreboardEntry), solves: standings.solves, frozenAt: cutoff };
}
