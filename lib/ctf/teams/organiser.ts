import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { errorCodes } from "@/db/error-codes";
import { transactionWithRetry } from "@/db/transaction";
import { members, teams, type Ctf, type Team } from "@/db/schema";
import { conflict, notFound } from "@/lib/kernel/errors";
import { isIdShaped } from "@/lib/kernel/ids";
import { offsetOf, page, type Page, type Paging } from "@/lib/kernel/paging";
import { findCtf } from "@/lib/ctf/competitions/competitions";
import type { RenameTeamInput, TeamView } from "./schemas";
import { inviteCodeColumns } from "./teams";
import { toTeamView } from "./views";

/**
 * Teams from the organiser's side (`/api/v1/ctfs/{ctf_id}/teams…`, the dashboard): list them
 * with their members, rename one, take a member out (the team keeps its solves), delete one
 * (its members are left without a team; its solves, hint unlocks and attempts go with it).
 * Workspace-scoped: another workspace's competition or team is a 404 like a missing one.
 * Nothing changes once the competition is archived (its snapshot is final).
 */

/** `GET /api/v1/ctfs/{ctf_id}/teams`: a page of teams, oldest first, each with its members. */
export async function listTeams(db: Db, workspaceId: string, ctfId: string, paging: Paging): Promise<Page<TeamView>> {
  await findCtf(db, workspaceId, ctfId);
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(teams).where(eq(teams.ctfId, ctfId)).orderBy(asc(teams.createdAt), asc(teams.id)).limit(paging.per_page).offset(offsetOf(paging)),
    db.select({ total: sql<number>`count(*)::int` }).from(teams).where(eq(teams.ctfId, ctfId)),
  ]);
  const byTeam = await membersOf(db, rows.map((team) => team.id));
  return page(rows.map((team) => toTeamView(team, byTeam.get(team.id) ?? [])), paging, Number(total));
}

/** `PATCH /api/v1/ctfs/{ctf_id}/teams/{team_id}`: a new name, unique in the competition case-insensitively (409). */
export async function renameTeam(db: Db, workspaceId: string, ctfId: string, teamId: string, { name }: RenameTeamInput): Promise<TeamView> {
  return transactionWithRetry(db, async (tx) => {
    const { team } = await changeableTeam(tx, workspaceId, ctfId, teamId);
    const [taken] = await tx
      .select({ id: teams.id })
      .from(teams)
      .where(and(eq(teams.ctfId, ctfId), sql`lower(${teams.name}) = lower(${name})`, sql`${teams.id} <> ${team.id}`));
    const nameTaken = conflict(`A team named “${name}” already exists in this competition: choose another name.`);
    if (taken) throw nameTaken;
    try {
      // A savepoint: a rename racing another to the same name loses with a clear 409, not an aborted transaction.
      await tx.transaction((inner) => inner.update(teams).set({ name }).where(eq(teams.id, team.id)));
    } catch (error) {
      if (errorCodes(error).includes("23505")) throw nameTaken;
      throw error;
    }
    return teamView(tx, { ...team, name });
  });
}

/** `DELETE /api/v1/ctfs/{ctf_id}/teams/{team_id}`: its members go back to no team; its solves, unlocks and attempts go with it. */
export async function deleteTeam(db: Db, workspaceId: string, ctfId: string, teamId: string): Promise<{ deleted: true; id: string }> {
  return transactionWithRetry(db, async (tx) => {
    const { team } = await changeableTeam(tx, workspaceId, ctfId, teamId);
    await tx.delete(teams).where(eq(teams.id, team.id));
    return { deleted: true as const, id: team.id };
  });
}

/**
 * `DELETE /api/v1/ctfs/{ctf_id}/teams/{team_id}/members/{member_id}`: the member leaves the team
 * (which keeps its solves) and the team gets a new invite code (the one the member knew would
 * let them straight back in; the remaining members see the new one); the team as it is now.
 */
export async function removeTeamMember(db: Db, workspaceId: string, ctfId: string, teamId: string, memberId: string): Promise<TeamView> {
  return transactionWithRetry(db, async (tx) => {
    const { team } = await changeableTeam(tx, workspaceId, ctfId, teamId);
    const left = isIdShaped(memberId, "mem")
      ? await tx.update(members).set({ teamId: null }).where(and(eq(members.id, memberId), eq(members.teamId, team.id))).returning({ id: members.id })
      : [];
    if (left.length === 0) throw notFound("Member of this team");
    await tx.update(teams).set(inviteCodeColumns()).where(eq(teams.id, team.id));
    return teamView(tx, team);
  });
}

/** The workspace's competition (not archived: 409) and its team, locked (joins wait for the change). */
async function changeableTeam(tx: Db, workspaceId: string, ctfId: string, teamId: string): Promise<{ ctf: Ctf; team: Team }> {
  const ctf = await findCtf(tx, workspaceId, ctfId);
  if (!isIdShaped(teamId, "team")) throw notFound("Team");
  const [team] = await tx.select().from(teams).where(and(eq(teams.id, teamId), eq(teams.ctfId, ctf.id))).for("update");
  if (!team) throw notFound("Team");
  if (ctf.status === "archived") throw conflict("The competition is archived: its teams are final.");
  return { ctf, team };
}

async function teamView(db: Db, team: Team): Promise<TeamView> {
  return toTeamView(team, (await membersOf(db, [team.id])).get(team.id) ?? []);
}

/** The members of each team, in the order they joined the competition. */
async function membersOf(db: Db, teamIds: string[]) {
  const byTeam = new Map<string, { id: string; email: string; displayName: string | null }[]>();
  if (teamIds.length === 0) return byTeam;
  const rows = await db
    .select({ teamId: members.teamId, id: members.id, email: members.email, displayName: members.displayName })
    .from(members)
    .where(inArray(members.teamId, teamIds))
    .orderBy(asc(members.joinedAt), asc(members.id));
  for (const { teamId, ...member } of rows) if (teamId) byTeam.set(teamId, [...(byTeam.get(teamId) ?? []), member]);
  return byTeam;
}
