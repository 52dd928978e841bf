import { and, eq, inArray, lt } from "drizzle-orm";
import type { Db } from "@/db";
import { hintUnlocks, type Ctf } from "@/db/schema";
import type { ScoreboardEntry, ScoreGraph } from "./schemas";
import { scoreboardPage, valuedSolves, type BoardScope } from "./scoreboard";
import { freezeCutoff, PUBLIC_STANDINGS_MAX_AGE_MS, publicCtf, publicStandings, solverKey } from "./standings";

/** How many entries of the scoreboard the graph draws. */
export const GRAPH_TOP = 10;

/** A change of someone's score: a solve (+ what it counts for) or a hint unlock (− its cost). */
type ScoreEvent = { key: string; at: Date; delta: number };

/**
 * The score graph of a competition's page (`GET /api/c/{ctf_id}/scoreboard/graph`): the top
 * ten of the public scoreboard, each with their score over time — 0 at the start, then a step
 * per solve and hint unlock. A solve steps by what it counts for on the board, its dynamic
 * challenge's current value (as of the freeze, if passed), so each line ends at the entry's
 * score (docs/decisions.md). Frozen like the public board; an archived competition's from
 * its snapshot (solves and, since they are kept, hint unlocks; an older snapshot without them
 * gets one closing step to the entry's score at the end of the window), and an external
 * host's (CTFd) from its solves (hint costs are not in them).
 */
export async function scoreGraph(db: Db, ctfId: string, now = new Date()): Promise<ScoreGraph> {
  const ctf = await publicCtf(db, ctfId);
  if (ctf.host === "builtin" && ctf.status !== "archived") return builtinGraph(db, ctf, freezeCutoff(ctf, now));
  const standings = await publicStandings(db, ctf, { maxAgeMs: PUBLIC_STANDINGS_MAX_AGE_MS, now });
  const top = standings.scores.slice(0, GRAPH_TOP);
  const keys = new Set(top.map(solverKey));
  const events: ScoreEvent[] = standings.solves.filter((solve) => keys.has(solverKey(solve))).map((solve) => ({ key: solverKey(solve), at: new Date(solve.solved_at), delta: solve.points }));
  const snapshot = ctf.status === "archived" ? ctf.snapshot : null;
  if (snapshot?.hint_unlocks) {
    for (const unlock of snapshot.hint_unlocks) {
      const key = solverKey(unlock);
      if (keys.has(key)) events.push({ key, at: new Date(unlock.unlocked_at), delta: -unlock.cost });
    }
  }
  const series = seriesOf(ctf, top, events);
  // A snapshot from before unlocks were kept: its hint costs are known only as a total, so the line closes on the score at the end.
  return { frozen_at: standings.frozenAt?.toISOString() ?? null, series: snapshot && !snapshot.hint_unlocks ? series.map((line) => closed(line, ctf.endsAt)) : series };
}

/** The line with a last step to its entry's score, if it does not end there (at the end of the window, or just after its last step). */
function closed(line: ScoreGraph["series"][number], endsAt: Date): ScoreGraph["series"][number] {
  const last = line.steps[line.steps.length - 1];
  if (last.score === line.score) return line;
  const at = Date.parse(last.at) < endsAt.getTime() ? endsAt : new Date(Date.parse(last.at) + 1);
  return { ...line, steps: [...line.steps, { at: at.toISOString(), score: line.score }] };
}

/** Our own tables: the top ten's solves (at their values) and unlocks, before the cutoff. */
async function builtinGraph(db: Db, ctf: Ctf, cutoff: Date | null): Promise<ScoreGraph> {
  const scope: BoardScope = { ctfId: ctf.id, mode: ctf.mode, cutoff };
  const top = (await scoreboardPage(db, scope, { page: 1, per_page: GRAPH_TOP })).data;
  const frozen_at = cutoff?.toISOString() ?? null;
  if (top.length === 0) return { frozen_at, series: [] };
  const teams = ctf.mode === "teams";
  const ids = top.map((entry) => (teams ? entry.team_id : entry.member_id)).filter((id): id is string => id !== null);
  const valued = valuedSolves(db, scope);
  const [solveRows, unlockRows] = await Promise.all([
    db
      .select({ memberId: valued.memberId, teamId: valued.teamId, at: valued.solvedAt, value: valued.value })
      .from(valued)
      .where(inArray(teams ? valued.teamId : valued.memberId, ids)),
    db
      .select({ memberId: hintUnlocks.memberId, teamId: hintUnlocks.teamId, at: hintUnlocks.unlockedAt, cost: hintUnlocks.cost })
      .from(hintUnlocks)
      .where(and(eq(hintUnlocks.ctfId, ctf.id), inArray(teams ? hintUnlocks.teamId : hintUnlocks.memberId, ids), cutoff ? lt(hintUnlocks.unlockedAt, cutoff) : undefined)),
  ]);
  const keyOf = (row: { memberId: string; teamId: string | null }) => (teams ? row.teamId! : row.memberId);
  const events: ScoreEvent[] = [
    ...solveRows.map((row) => ({ key: keyOf(row), at: new Date(row.at), delta: Number(row.value) })),
    ...unlockRows.map((row) => ({ key: keyOf(row), at: new Date(row.at), delta: -row.cost })),
  ];
  return { frozen_at, series: seriesOf(ctf, top, events) };
}

/** Each entry's steps, oldest first, from 0 at the start (or at its first event, if earlier). */
function seriesOf(ctf: Pick<Ctf, "startsAt">, top: ScoreboardEntry[], events: ScoreEvent[]): ScoreGraph["series"] {
  const sorted = [...events].sort((a, b) => a.at.getTime() - b.at.getTime());
  return top.map((entry) => {
    const own = sorted.filter((event) => event.key === solverKey(entry));
    const start = own.length > 0 && own[0].at < ctf.startsAt ? own[0].at : ctf.startsAt;
    let score = 0;
    const steps = [{ at: start.toISOString(), score }];
    for (const event of own) {
      score += event.delta;
      steps.push({ at: event.at.toISOString(), score });
    }
    return { pos: entry.pos, member_id: entry.member_id, team_id: entry.team_id, name: entry.name, score: entry.score, steps };
  });
}
