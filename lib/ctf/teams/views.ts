import type { Member, Team } from "@/db/schema";
import type { TeamView } from "./schemas";
import { memberName } from "@/lib/ctf/competitions/views";

/** A team as the organiser sees it (never its invite code). */
export function toTeamView(team: Team, teamMembers: Pick<Member, "id" | "email" | "displayName">[]): TeamView {
  return {
    id: team.id,
    name: team.name,
    members: teamMembers.map((member) => ({ id: member.id, name: memberName(member), email: member.email })),
    created_at: team.createdAt.toISOString(),
  };
}
