import type { Member, Team } from "@/db/schema";
import type { TeamView } from "./schemas";

/** The name a member goes by: their display name, else the address before `@` (as lib/ctf/play/players.ts `defaultPlayerName`). */
export function memberName(member: Pick<Member, "email" | "displayName">): string {
  return member.displayName ?? (member.email.split("@")[0].slice(0, 40) || "player");
}

/** A team as the organiser sees it (never its invite code). */
export function toTeamView(team: Team, teamMembers: Pick<Member, "id" | "email" | "displayName">[]): TeamView {
  return {
    id: team.id,
    name: team.name,
    members: teamMembers.map((member) => ({ id: member.id, name: memberName(member), email: member.email })),
    created_at: team.createdAt.toISOString(),
  };
}
