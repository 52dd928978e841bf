import { asc, eq } from "drizzle-orm";
import type { Db } from "@/db";
import { challenges, ctfs, hintUnlocks, members } from "@/db/schema";
import { publishEvent } from "@/lib/platform/pipeline/channels/webhook/publish";
import { hostFor } from "@/lib/ctf/hosting";
import { builtinStandings, settleFinalScores } from "./scoreboard";
import { readHostStandings, withFirstBlood } from "./standings";
import type { CtfView } from "@/lib/ctf/competitions/schemas";
import { assertState, findCtf, getCtf, runHost } from "@/lib/ctf/competitions/competitions";
/** Stores a final snapshot of challenges, members and scores, then ctf.archived. */
export async function archiveCtf(db: Db, workspaceId: string, ctfId: string): Promise<CtfView> {
  const current = await findCtf(db, workspaceId, ctfId);
  assertState(current, "archive");
  // An external host's standings (CTFd's scoreboard and solves) are read before its teardown and
  // outside the transaction (a network call holds no lock); a failure is a 503 and changes nothing.
  const remote = current.host === "builtin" ? undefined : await readHostStandings(db, current);
  if (current.status === "deployed") await runHost(() => hostFor(current.host, db).teardownCompetition(current));
  await db.transaction(async (tx) => {
    const ctf = await findCtf(tx, workspaceId, ctfId, true);
    assertState(ctf, "archive");
    // The final scores first (they write members.score), then the rows that show them. Played
    // here (the built-in host), they are read in this transaction, which waits for submissions in flight.
    // Whole, never frozen: the snapshot is the final scoreboard (per team in teams mode), first bloods marked.
    const standings = await settleFinalScores(tx, remote ? { ...remote, ...withFirstBlood(remote) } : await builtinStandings(tx, ctf.id));
    const [challengeRows, memberRows, unlockRows] = await Promise.all([
      tx.select().from(challenges).where(eq(challenges.ctfId, ctf.id)),
      tx.select().from(members).where(eq(members.ctfId, ctf.id)),
      // Played here: the hint costs the score graph steps down by (CTFd's are not known here).
      remote ? Promise.resolve([]) : tx.select().from(hintUnlocks).where(eq(hintUnlocks.ctfId, ctf.id)).orderBy(asc(hintUnlocks.unlockedAt), asc(hintUnlocks.id)),
    ]);
    const archivedAt = new Date();
    const snapshot = {
      archived_at: archivedAt.toISOString(),
      challenges: challengeRows.map((c) => ({ challenge_id: c.id, title: c.title, category: c.category, points: c.points, status: c.status, platform_challenge_id: c.platformChallengeId })),
      members: memberRows.map((m) => ({ member_id: m.id, email: m.email, status: m.status, score: m.score })),
      scores: standings.scores,
      solves: standings.solves,
      attempts: standings.attempts,
      ...(remote
        ? {}
        : {
            hint_unlocks: unlockRows.map((u) => ({ member_id: u.memberId, team_id: u.teamId, challenge_id: u.challengeId, hint: u.hint, cost: u.cost, unlocked_at: u.unlockedAt.toISOString() })),
          }),
    };
    await tx.update(ctfs).set({ status: "archived", snapshot, archivedAt, updatedAt: archivedAt }).where(eq(ctfs.id, ctf.id));
    await publishEvent(tx, workspaceId, "ctf.archived", {
      managed_ctf_id: ctf.id,
      title: ctf.title,
      archived_at: snapshot.archived_at,
      challenges: challengeRows.length,
      members: memberRows.length,
    });
  });
  return getCtf(db, workspaceId, ctfId);
}
