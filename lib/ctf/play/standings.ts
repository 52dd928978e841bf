import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db";
import { challenges, ctfs, members, type Ctf, type CtfSnapshot } from "@/db/schema";
import { offsetOf, page, type Page, type Paging } from "@/lib/kernel/paging";
import { isIdShaped } from "@/lib/kernel/values";
import { AppError, notFound } from "@/lib/kernel/errors";
import { describeHostError, hostFor, type HostStanding, type HostStandings } from "@/lib/ctf/hosting";
import type { ScoreboardEntry } from "./schemas";
import { defaultPlayerName } from "./players";
import { builtinStandings, scoreboardPage } from "./scoreboard";

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

/** A standing as the scoreboard shows it: never the address. */
export function toScoreboardEntry({ email: _email, ...entry }: HostStanding): ScoreboardEntry {
  return entry;
}

/** The final scoreboard kept in a snapshot (older snapshots had only addresses and scores: positions and names are derived). */
export function snapshotScoreboard(snapshot: CtfSnapshot): ScoreboardEntry[] {
  return snapshot.scores.map((score, index) => ({
    pos: score.pos ?? index + 1,
    member_id: score.member_id,
    ...(score.platform_account_id !== undefined ? { platform_account_id: score.platform_account_id } : {}),
    name: score.name ?? defaultPlayerName(score.email ?? ""),
    score: score.score,
    solves: score.solves ?? 0,
    last_solve_at: score.last_solve_at ?? null,
  }));
}

function slice(entries: ScoreboardEntry[], paging: Paging): Page<ScoreboardEntry> {
  const offset = offsetOf(paging);
  return page(entries.slice(offset, offset + paging.per_page), paging, entries.length);
}

async function scoreboardOf(db: Db, ctf: Ctf, paging: Paging, maxAgeMs: number): Promise<Page<ScoreboardEntry>> {
  if (ctf.status === "archived" && ctf.snapshot) return slice(snapshotScoreboard(ctf.snapshot), paging);
  if (ctf.host === "builtin") return scoreboardPage(db, ctf.id, paging);
  const standings = await readHostStandings(db, ctf, { maxAgeMs });
  return slice(standings.scores.map(toScoreboardEntry), paging);
}

/** The scoreboard of a workspace's competition (`GET /api/v1/ctfs/{ctf_id}/scoreboard`): an external host is read afresh. */
export async function workspaceScoreboard(db: Db, workspaceId: string, ctfId: string, paging: Paging): Promise<Page<ScoreboardEntry>> {
  if (!isIdShaped(ctfId, "ctf")) throw notFound("Competition");
  const [ctf] = await db.select().from(ctfs).where(and(eq(ctfs.id, ctfId), eq(ctfs.workspaceId, workspaceId)));
  if (!ctf) throw notFound("Competition");
  return scoreboardOf(db, ctf, paging, 0);
}

/** The competition states whose page (and scoreboard) is public: running or about to, ended, or archived. */
export const publicCtfStatuses = ["deployed", "archived"] as const;

/**
 * The scoreboard of the public page (`GET /api/c/{ctf_id}/scoreboard`): a deployed
 * competition's current one, an archived competition's final one (its snapshot); anything
 * else (a draft, a stopped instance) is a 404.
 */
export async function publicScoreboard(db: Db, ctfId: string, paging: Paging): Promise<Page<ScoreboardEntry>> {
  if (!isIdShaped(ctfId, "ctf")) throw notFound("Competition");
  const [ctf] = await db
    .select()
    .from(ctfs)
    .where(and(eq(ctfs.id, ctfId), inArray(ctfs.status, [...publicCtfStatuses])));
  if (!ctf) throw notFound("Competition");
  return scoreboardOf(db, ctf, paging, PUBLIC_STANDINGS_MAX_AGE_MS);
}
