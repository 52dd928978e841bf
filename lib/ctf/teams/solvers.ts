import { and, eq, isNull, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db";
import { flagAttempts, hintUnlocks, members, solves, type Ctf } from "@/db/schema";
import { conflict } from "@/lib/kernel/errors";

/**
 * Who a solve, a hint unlock or a flag attempt counts for: the player alone in `individual`
 * mode (`teamId` null), their team in `teams` mode (its members share solves, hint costs and
 * attempts; the rows carry `team_id`).
 */
export type Solver = { ctfId: string; memberId: string; teamId: string | null };

export const TEAM_REQUIRED = "Create or join a team first: in this competition a team plays together.";

/**
 * The solver a member plays as in `ctf`, their team read now (an organiser may have moved
 * them since their request began). `requireTeam`: in teams mode, a member without a team is
 * refused (409) instead of being handed a solver that has solved nothing.
 */
export async function solverOf(db: Db, ctf: Pick<Ctf, "id" | "mode">, memberId: string, { requireTeam }: { requireTeam: boolean }): Promise<Solver & { teamless: boolean }> {
  if (ctf.mode !== "teams") return { ctfId: ctf.id, memberId, teamId: null, teamless: false };
  const [row] = await db.select({ teamId: members.teamId }).from(members).where(eq(members.id, memberId));
  const teamId = row?.teamId ?? null;
  if (!teamId && requireTeam) throw conflict(TEAM_REQUIRED);
  return { ctfId: ctf.id, memberId, teamId, teamless: !teamId };
}

type PlayTable = typeof solves | typeof hintUnlocks | typeof flagAttempts;

/**
 * The rows of `table` that count for `solver`: the team's, or the player's own rows without a
 * team (as the partial unique indexes split them). A teams-mode player without a team has none.
 */
export function rowsOfSolver(table: PlayTable, solver: Solver & { teamless?: boolean }): SQL {
  if (solver.teamless) return sql`false`;
  return solver.teamId ? eq(table.teamId, solver.teamId) : and(eq(table.memberId, solver.memberId), isNull(table.teamId))!;
}
