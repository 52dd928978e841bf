import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db";
import { challenges, ctfs, members } from "@/db/schema";
import { challengeValue } from "@/lib/ctf/challenges/scoring";
import { solveCountSql } from "@/lib/ctf/challenges/solve-counts";
import { isIdShaped } from "@/lib/kernel/ids";
import { hashToken, isTokenShaped } from "@/lib/platform/security/tokens";
import { freezeCutoff } from "./standings";

/**
 * What the public pages served by the built-in host may show, without an account:
 * a deployed (or archived) competition and its published challenges' titles, categories and
 * points (their content goes to players while it runs: lib/ctf/play/play.ts), a live standalone
 * deployment, and an invitation's competition. Never flags, flag hashes, tokens, members or
 * the workspace; nothing of a competition that is neither deployed nor archived.
 */

export type PublicChallenge = {
  id: string;
  title: string;
  category: string;
  difficulty: string | null;
  description: string;
  /**
   * What it is worth now: a dynamic challenge's current value (it falls with each solve); once
   * the competition's freeze has passed, its value as of the freeze (the solves before it).
   */
  points: number;
  hints: { text: string; cost: number }[];
  /** The challenge's labels. */
  tags: string[];
  /** Ids of the challenges that must be solved first (the player's or team's progress says whether they are). */
  requires: string[];
  /** Wrong flags allowed per player or team; null: unlimited. */
  max_attempts: number | null;
};

/** A competition's challenge as anyone may see it: no description, no hint text (players get those while it runs). */
export type ChallengeSummary = Omit<PublicChallenge, "description" | "hints"> & { hints: { cost: number }[] };

export type PublicCompetition = {
  id: string;
  title: string;
  description: string;
  starts_at: string;
  ends_at: string;
  is_public: boolean;
  /** `deployed` (before, while and after its window) or `archived` (the final scoreboard only). */
  status: "deployed" | "archived";
  /** `builtin` (played on this page) or `ctfd` (played on CTFd, at `url`). */
  host: string;
  url: string | null;
  challenges: ChallengeSummary[];
};

export const publicChallengeColumns = {
  id: challenges.id,
  title: challenges.title,
  category: challenges.category,
  difficulty: challenges.difficulty,
  description: challenges.description,
  points: challenges.points,
  hints: challenges.hints,
  tags: challenges.tags,
  requires: challenges.requires,
  max_attempts: challenges.maxAttempts,
};

/**
 * A deployed or archived competition with its published challenges (by category, then points); else null.
 * Frozen (freeze_at passed, lib/ctf/play/standings.ts freezeCutoff): dynamic values as of the
 * freeze, as on the public board — a value falling on the page would tell of solves since.
 */
export async function publicCompetition(db: Db, ctfId: string, now = new Date()): Promise<PublicCompetition | null> {
  if (!isIdShaped(ctfId, "ctf")) return null;
  const [ctf] = await db
    .select({ id: ctfs.id, title: ctfs.title, description: ctfs.description, startsAt: ctfs.startsAt, endsAt: ctfs.endsAt, isPublic: ctfs.isPublic, status: ctfs.status, host: ctfs.host, url: ctfs.url, freezeAt: ctfs.freezeAt })
    .from(ctfs)
    .where(and(eq(ctfs.id, ctfId), inArray(ctfs.status, ["deployed", "archived"])));
  if (!ctf) return null;
  const cutoff = freezeCutoff(ctf, now);
  const rows = await db
    .select({ ...publicChallengeColumns, scoring: challenges.scoring, solves: solveCountSql(cutoff) })
    .from(challenges)
    .where(and(eq(challenges.ctfId, ctf.id), eq(challenges.status, "published")))
    .orderBy(asc(challenges.category), asc(challenges.points), asc(challenges.title), asc(challenges.id));
  return {
    id: ctf.id,
    title: ctf.title,
    description: ctf.description,
    starts_at: ctf.startsAt.toISOString(),
    ends_at: ctf.endsAt.toISOString(),
    is_public: ctf.isPublic,
    status: ctf.status as PublicCompetition["status"],
    host: ctf.host,
    url: ctf.status === "deployed" ? ctf.url : null,
    challenges: rows.map(({ description: _content, hints, scoring, solves: solveCount, ...summary }) => ({
      ...summary,
      points: challengeValue(scoring, summary.points, Number(solveCount)),
      hints: hints.map((hint) => ({ cost: hint.cost })),
    })),
  };
}

export type InvitationPreview = {
  email: string;
  /** The display name given at acceptance, if any. */
  name: string | null;
  status: "invited" | "joined";
  ctf: {
    id: string;
    title: string;
    starts_at: string;
    ends_at: string;
    status: string;
    /** Where the competition is reachable, only while it is deployed. */
    url: string | null;
  };
};

/** Reads an invitation by its token without accepting it (GET must not join anyone); null when unknown. */
export async function invitationPreview(db: Db, token: string): Promise<InvitationPreview | null> {
  if (!isTokenShaped(token)) return null;
  const [row] = await db
    .select({ email: members.email, name: members.displayName, status: members.status, ctf: { id: ctfs.id, title: ctfs.title, startsAt: ctfs.startsAt, endsAt: ctfs.endsAt, status: ctfs.status, url: ctfs.url } })
    .from(members)
    .innerJoin(ctfs, eq(ctfs.id, members.ctfId))
    .where(eq(members.tokenHash, hashToken(token)));
  if (!row) return null;
  return {
    email: row.email,
    name: row.name,
    status: row.status,
    ctf: {
      id: row.ctf.id,
      title: row.ctf.title,
      starts_at: row.ctf.startsAt.toISOString(),
      ends_at: row.ctf.endsAt.toISOString(),
      status: row.ctf.status,
      url: row.ctf.status === "deployed" ? row.ctf.url : null,
    },
  };
}
