import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { challenges, type Challenge } from "@/db/schema";
import { invalidFields } from "@/lib/kernel/errors";

/**
 * A challenge's `requires`: challenges of the same competition a player (or team) must have
 * solved first. The ids are checked when they are set (422 on `requires` naming the bad one) and
 * forgotten when the challenge they name is deleted. The caller holds the competition's row
 * lock, so two edits cannot close a circle between them.
 */

const refused = (message: string) => invalidFields([{ field: "requires", message }]);

/** The ids as stored: each once, in the order given; unknown, foreign, self or circular ids → 422. */
export async function checkedPrerequisites(db: Db, workspaceId: string, ctfId: string, challengeId: string | null, requires: string[]): Promise<string[]> {
  const ids = [...new Set(requires)];
  if (!ids.length) return ids;
  if (challengeId && ids.includes(challengeId)) throw refused(`A challenge cannot require itself (${challengeId}).`);
  // Every challenge of the competition with what it requires: the graph the circle check walks.
  const rows = await db.select({ id: challenges.id, requires: challenges.requires }).from(challenges).where(and(eq(challenges.ctfId, ctfId), eq(challenges.workspaceId, workspaceId)));
  const graph = new Map(rows.map((row) => [row.id, row.requires]));
  const unknown = ids.find((id) => !graph.has(id));
  if (unknown) throw refused(`No challenge ${JSON.stringify(unknown.slice(0, 100))} in this competition.`);
  if (!challengeId) return ids;
  for (const id of ids) {
    const chain = requiresChain(graph, id, challengeId);
    if (chain) throw refused(`${id} already requires this challenge (${chain.join(" requires ")}): requiring it back would lock both for good.`);
  }
  return ids;
}

/** A chain of `requires` leading from `from` to `target` (both included), or null (the CTFd import checks its own with it too). */
export function requiresChain(graph: Map<string, string[]>, from: string, target: string): string[] | null {
  const seen = new Set<string>();
  const walk = (id: string): string[] | null => {
    if (id === target) return [id];
    if (seen.has(id)) return null;
    seen.add(id);
    for (const next of graph.get(id) ?? []) {
      const found = walk(next);
      if (found) return [id, ...found];
    }
    return null;
  };
  return walk(from);
}

/** A deleted challenge opens what required it: its id leaves the others' `requires`. */
export async function forgetPrerequisite(db: Db, workspaceId: string, ctfId: string, challengeId: string): Promise<void> {
  await db
    .update(challenges)
    .set({ requires: sql`${challenges.requires} - ${challengeId}::text` })
    .where(and(eq(challenges.ctfId, ctfId), eq(challenges.workspaceId, workspaceId), sql`${challenges.requires} @> ${JSON.stringify([challengeId])}::jsonb`));
}

/** The host's ids of the challenges `challenge` requires, and the titles of those not on the host yet. */
export async function hostedPrerequisites(db: Db, challenge: Pick<Challenge, "workspaceId" | "ctfId" | "requires">): Promise<{ platformIds: number[]; missing: string[] }> {
  if (!challenge.requires.length) return { platformIds: [], missing: [] };
  const rows = await db
    .select({ title: challenges.title, platformId: challenges.platformChallengeId })
    .from(challenges)
    .where(and(eq(challenges.ctfId, challenge.ctfId), eq(challenges.workspaceId, challenge.workspaceId), inArray(challenges.id, challenge.requires)));
  return {
    platformIds: rows.flatMap((row) => (row.platformId === null ? [] : [row.platformId])),
    missing: rows.filter((row) => row.platformId === null).map((row) => row.title),
  };
}
