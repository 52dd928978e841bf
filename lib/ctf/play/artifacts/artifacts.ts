import { and, eq } from "drizzle-orm";
import type { Db } from "@/db";
import { challengeArtifacts, challenges, ctfs, type Challenge, type ChallengeArtifact } from "@/db/schema";
import { conflict, notFound } from "@/lib/kernel/errors";
import type { PlayerArtifactView, RevealInput, RevealView } from "./schemas";
import { findChallenge } from "@/lib/ctf/challenges/challenges";
import { unsealFlag } from "@/lib/ctf/challenges/flags/flags";
import type { TargetQuery } from "@/lib/ctf/templates/kit/target-query";
import type { TargetReply, TargetState } from "@/lib/ctf/templates/kit/types";
import { assertOpenFor, assertRunning } from "@/lib/ctf/play/play";
import type { Player } from "@/lib/ctf/play/players";
import { templateFor } from "@/lib/ctf/templates/generate";
import { readCookie } from "@/lib/platform/http/cookies";

/**
 * The artifacts of generated challenges: what their players download and the web targets
 * the built-in host serves, under the same rules as challenge content (a joined player,
 * while the competition runs, a published challenge of that competition); and the
 * organiser's deliberate reveal of the flag and the solution. A standalone deployment's
 * players get the same through ./deployment-content.ts, under `/api/d/{deployment_id}`.
 */

/**
 * Where a player reaches a challenge's artifact routes: `{base}/artifact/file` and
 * `{base}/target/{page}` — a competition's challenge here, a deployment's at `/api/d/{id}`.
 */
export const competitionArtifactBase = (ctfId: string, challengeId: string) => `/api/c/${ctfId}/challenges/${challengeId}`;
const artifactFilePath = (base: string) => `${base}/artifact/file`;
const targetPath = (base: string) => `${base}/target`;

/** A published challenge of the player's running competition, not locked for them (409), with its artifact (null for one written by hand). */
async function playable(db: Db, player: Player, challengeId: string, now: Date): Promise<{ challenge: Challenge; artifact: ChallengeArtifact | null }> {
  const [ctf] = await db.select().from(ctfs).where(eq(ctfs.id, player.ctfId));
  if (!ctf) throw notFound("Competition");
  assertRunning(ctf, now);
  const [row] = await db
    .select({ challenge: challenges, artifact: challengeArtifacts })
    .from(challenges)
    .leftJoin(challengeArtifacts, eq(challengeArtifacts.challengeId, challenges.id))
    .where(and(eq(challenges.id, challengeId), eq(challenges.ctfId, ctf.id), eq(challenges.status, "published")));
  if (!row) throw notFound("Challenge");
  await assertOpenFor(db, player, ctf, row.challenge);
  return row;
}

/** What a player of a challenge works on, its URLs under `base`: the file and the target (both null for a challenge written by hand). */
export function artifactView(base: string, challengeId: string, artifact: ChallengeArtifact | null): PlayerArtifactView {
  return {
    challenge_id: challengeId,
    file:
      artifact?.fileData && artifact.fileName
        ? { name: artifact.fileName, content_type: artifact.fileType ?? "application/octet-stream", size: artifact.fileData.length, url: artifactFilePath(base) }
        : null,
    target: artifact?.target ? { url: `${targetPath(base)}/index` } : null,
  };
}

/** What a player of a challenge works on: its file and its target (both null for a challenge written by hand). */
export async function playerArtifact(db: Db, player: Player, challengeId: string, now = new Date()): Promise<PlayerArtifactView> {
  const { artifact } = await playable(db, player, challengeId, now);
  return artifactView(competitionArtifactBase(player.ctfId, challengeId), challengeId, artifact);
}

/** An artifact's file to download; none → 404. */
export function artifactFile(artifact: ChallengeArtifact | null): { name: string; data: Buffer } {
  if (!artifact?.fileData || !artifact.fileName) throw notFound("File");
  return { name: artifact.fileName, data: artifact.fileData };
}

/** The file to download; none → 404. */
export async function playerArtifactFile(db: Db, player: Player, challengeId: string, now = new Date()): Promise<{ name: string; data: Buffer }> {
  const { artifact } = await playable(db, player, challengeId, now);
  return artifactFile(artifact);
}

const PAGE = /^[a-z0-9-]{1,40}$/;

export type TargetRequestIn = { page: string; query: TargetQuery; cookieHeader: string | null };

/**
 * One page of a challenge's web target, served under `base`, answered by its template with
 * the flag unsealed for this request only. Challenges without a target, unknown pages → 404.
 */
export function answerTarget(challenge: Challenge, artifact: ChallengeArtifact | null, request: TargetRequestIn, base: string): TargetReply {
  const template = challenge.template ? templateFor(challenge.template) : undefined;
  if (!artifact?.target || !template?.serve) throw notFound("Target");
  if (!PAGE.test(request.page)) throw notFound("Page");
  return template.serve(artifact.target as TargetState, {
    page: request.page,
    query: request.query,
    cookie: (name) => readCookie(request.cookieHeader, name),
    flag: unsealFlag(challenge.flagSealed),
    basePath: targetPath(base),
  });
}

/** One page of a competition challenge's web target, for its player (the rules of `playable`). */
export async function serveTarget(db: Db, player: Player, challengeId: string, request: TargetRequestIn, now = new Date()): Promise<TargetReply> {
  const { challenge, artifact } = await playable(db, player, challengeId, now);
  return answerTarget(challenge, artifact, request, competitionArtifactBase(player.ctfId, challengeId));
}

/** What a player's page shows of a generated challenge: its file (with its text when it is short text) and its target's first page. */
export type PageArtifact = { file: { name: string; url: string; size: number; text: string | null } | null; target: string | null };

/** The page's view of one artifact, its URLs under `base`. */
export function pageArtifact(base: string, challengeId: string, artifact: ChallengeArtifact): PageArtifact {
  const view = artifactView(base, challengeId, artifact);
  const text = artifact.fileData && artifact.fileType?.startsWith("text/") && artifact.fileData.length <= 16_384 ? artifact.fileData.toString("utf8") : null;
  return { file: view.file ? { name: view.file.name, url: view.file.url, size: view.file.size, text } : null, target: view.target?.url ?? null };
}

/** For the competition page, while it runs: the published generated challenges' artifacts, by challenge id; none of those `locked` for the player. */
export async function artifactsForPage(db: Db, ctfId: string, locked: Record<string, string[]> = {}): Promise<Record<string, PageArtifact>> {
  const rows = await db
    .select({ challengeId: challengeArtifacts.challengeId, artifact: challengeArtifacts })
    .from(challengeArtifacts)
    .innerJoin(challenges, eq(challenges.id, challengeArtifacts.challengeId))
    .where(and(eq(challenges.ctfId, ctfId), eq(challenges.status, "published")));
  return Object.fromEntries(
    rows.filter(({ challengeId }) => !locked[challengeId]).map(({ challengeId, artifact }) => [challengeId, pageArtifact(competitionArtifactBase(ctfId, challengeId), challengeId, artifact)]),
  );
}

/**
 * The organiser reveals a generated challenge's flag and solution steps: a POST with
 * `confirm: true`, never part of a read. A challenge written by hand keeps its flag hashed
 * (or sealed, for a pattern) and unreadable: 409. The time of the reveal is kept.
 */
export async function revealChallenge(db: Db, workspaceId: string, ctfId: string, challengeId: string, _input: RevealInput, now = new Date()): Promise<RevealView> {
  const challenge = await findChallenge(db, workspaceId, ctfId, challengeId);
  if (challenge.status === "generating") throw conflict("The challenge is still generating: its flag does not exist yet.");
  if (!challenge.template) throw conflict("Only a generated challenge's flag can be revealed: this challenge's flag was given when it was written and is not kept readable.");
  const [artifact] = await db.update(challengeArtifacts).set({ revealedAt: now }).where(eq(challengeArtifacts.challengeId, challenge.id)).returning();
  if (!artifact) throw conflict("This generated challenge has no stored artifact to reveal.");
  return {
    challenge_id: challenge.id,
    template: challenge.template,
    flag: unsealFlag(challenge.flagSealed),
    flag_mode: challenge.flagMode,
    solution: artifact.solution,
    revealed_at: now.toISOString(),
  };
}
