import { randomBytes } from "node:crypto";
import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { transactionWithRetry } from "@/db/transaction";
import { ctfs, members, teams, type Ctf, type Team } from "@/db/schema";
import { AppError, conflict, notFound } from "@/lib/kernel/errors";
import { newId } from "@/lib/kernel/ids";
import { hashToken } from "@/lib/platform/security/tokens";
import { seal, unseal } from "@/lib/platform/security/sealing";
import type { CreateTeamInput, JoinTeamInput, MyTeamView, PlayerTeamView } from "./schemas";
import { memberName } from "@/lib/ctf/competitions/views";

/**
 * Teams of a `teams`-mode competition, from a player's side: create one (and be its first
 * member), join one with its invite code, read one's own. Only while the competition is
 * deployed and has not ended (before the start too), on the built-in host (on CTFd, teams
 * are CTFd's). A player is in at most one team; `team_size_max` holds exactly, also under
 * concurrent joins (the team row is locked, then its members counted, in one transaction).
 */

/** Who asks: a joined member of one competition (the `player` caller). */
export type TeamCaller = { ctfId: string; memberId: string };

/** The seal purpose of `teams.invite_code_sealed` (db/sealed.ts; key rotation re-seals it with the others). */
const INVITE_SEAL = "teams.invite_code" as const;

const INVITE_CODE = /^[A-Za-z0-9_-]{16}$/;

/** A random invite code: 96 bits, base64url (16 characters). */
function newInviteCode(): string {
  return randomBytes(12).toString("base64url");
}

/** A new invite code's columns: its hash (looked up on join) and the code sealed (shown to the team's members). */
export function inviteCodeColumns(code = newInviteCode()): { inviteCodeHash: string; inviteCodeSealed: string } {
  return { inviteCodeHash: hashToken(code), inviteCodeSealed: seal(INVITE_SEAL, code) };
}

/** The competition, if teams can be formed in it now; else 409 saying why. KEY SHARE: it is not archived meanwhile. */
async function teamsOpen(tx: Db, ctfId: string, now: Date): Promise<Ctf> {
  const [ctf] = await tx.select().from(ctfs).where(eq(ctfs.id, ctfId)).for("key share");
  if (!ctf) throw notFound("Competition");
  if (ctf.mode !== "teams") throw conflict("This competition is played individually: it has no teams.");
  if (ctf.host !== "builtin") throw conflict("This competition is played on its hosting platform (CTFd): create or join a team there.");
  if (ctf.status !== "deployed") throw conflict(`Teams cannot be formed now: the competition is ${ctf.status}.`);
  if (now >= ctf.endsAt) throw conflict(`Teams cannot be formed now: the competition ended at ${ctf.endsAt.toISOString()}.`);
  return ctf;
}

/** The caller's member row, locked (one team at a time): 409 when they already have a team. */
async function teamlessMember(tx: Db, caller: TeamCaller): Promise<void> {
  const [member] = await tx
    .select({ teamId: members.teamId, team: teams.name })
    .from(members)
    .leftJoin(teams, eq(teams.id, members.teamId))
    .where(and(eq(members.id, caller.memberId), eq(members.ctfId, caller.ctfId)))
    .for("update", { of: members });
  if (!member) throw notFound("Member");
  if (member.teamId) throw conflict(`You are already in team “${member.team}”: a player is in one team only.`);
}

/** `POST /api/c/{ctf_id}/teams`: a new team with the caller as its first member; its name unique case-insensitively (409). */
export async function createTeam(db: Db, caller: TeamCaller, { name }: CreateTeamInput, now = new Date()): Promise<PlayerTeamView> {
  return transactionWithRetry(db, async (tx) => {
    const ctf = await teamsOpen(tx, caller.ctfId, now);
    await teamlessMember(tx, caller);
    // The unique index on lower(name) decides between two teams named alike at once: the loser inserts nothing.
    const [team] = await tx
      .insert(teams)
      .values({ id: newId("team"), ctfId: ctf.id, workspaceId: ctf.workspaceId, name, ...inviteCodeColumns(), createdAt: now })
      .onConflictDoNothing()
      .returning();
    if (!team) throw conflict(`A team named “${name}” already exists in this competition: choose another name.`);
    await tx.update(members).set({ teamId: team.id }).where(eq(members.id, caller.memberId));
    return playerTeam(tx, team);
  });
}

/**
 * `POST /api/c/{ctf_id}/teams/join`: the caller joins the team of `invite_code`. An unknown
 * code (or another competition's) is a 404 that names no team. The team row is locked before
 * its members are counted, so concurrent joins fill it exactly to `team_size_max`.
 */
export async function joinTeam(db: Db, caller: TeamCaller, { invite_code }: JoinTeamInput, now = new Date()): Promise<PlayerTeamView> {
  return transactionWithRetry(db, async (tx) => {
    const ctf = await teamsOpen(tx, caller.ctfId, now);
    await teamlessMember(tx, caller);
    const unknown = new AppError("not_found", "No team has this invite code in this competition. Check the code with a member of the team.");
    if (!INVITE_CODE.test(invite_code)) throw unknown;
    const [team] = await tx
      .select()
      .from(teams)
      .where(and(eq(teams.inviteCodeHash, hashToken(invite_code)), eq(teams.ctfId, ctf.id)))
      .for("update");
    if (!team) throw unknown;
    if (ctf.teamSizeMax !== null) {
      const [{ size }] = await tx.select({ size: sql<number>`count(*)::int` }).from(members).where(eq(members.teamId, team.id));
      if (Number(size) >= ctf.teamSizeMax) throw conflict(`Team “${team.name}” is full: a team has at most ${ctf.teamSizeMax} member${ctf.teamSizeMax === 1 ? "" : "s"} in this competition.`);
    }
    await tx.update(members).set({ teamId: team.id }).where(eq(members.id, caller.memberId));
    return playerTeam(tx, team);
  });
}

/** `GET /api/c/{ctf_id}/team`: the competition's mode and the caller's team (null before they have one). */
export async function myTeam(db: Db, caller: TeamCaller): Promise<MyTeamView> {
  const [row] = await db
    .select({ mode: ctfs.mode, teamSizeMax: ctfs.teamSizeMax, team: teams })
    .from(members)
    .innerJoin(ctfs, eq(ctfs.id, members.ctfId))
    .leftJoin(teams, eq(teams.id, members.teamId))
    .where(and(eq(members.id, caller.memberId), eq(members.ctfId, caller.ctfId)));
  if (!row) throw notFound("Member");
  return { mode: row.mode, team_size_max: row.teamSizeMax, team: row.team && row.mode === "teams" ? await playerTeam(db, row.team) : null };
}

/** A team as its members see it: the invite code, the members by display name (in the order they joined the competition). */
async function playerTeam(db: Db, team: Team): Promise<PlayerTeamView> {
  const rows = await db
    .select({ id: members.id, email: members.email, displayName: members.displayName })
    .from(members)
    .where(eq(members.teamId, team.id))
    .orderBy(asc(members.joinedAt), asc(members.id));
  return {
    id: team.id,
    name: team.name,
    invite_code: unseal(INVITE_SEAL, team.inviteCodeSealed),
    members: rows.map((row) => ({ member_id: row.id, name: memberName(row) })),
    created_at: team.createdAt.toISOString(),
  };
}
