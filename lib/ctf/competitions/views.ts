import type { Ctf, Member } from "@/db/schema";
import type { CtfView, MemberView } from "./schemas";

export const iso = (date: Date | null) => date?.toISOString() ?? null;

/** The part of the address before `@`: the default display name. */
export function defaultPlayerName(email: string): string {
  return email.split("@")[0].slice(0, 40) || "player";
}

/** The name a member goes by on boards and in teams: their display name, else the default. */
export function memberName(member: Pick<Member, "email" | "displayName">): string {
  return member.displayName ?? defaultPlayerName(member.email);
}

export function toCtfView(ctf: Ctf, counts: { challenges: number; members: number }): CtfView {
  return {
    id: ctf.id,
    title: ctf.title,
    description: ctf.description,
    starts_at: ctf.startsAt.toISOString(),
    ends_at: ctf.endsAt.toISOString(),
    is_public: ctf.isPublic,
    mode: ctf.mode,
    team_size_max: ctf.teamSizeMax,
    freeze_at: iso(ctf.freezeAt),
    status: ctf.status,
    url: ctf.url,
    host: ctf.host,
    last_error: ctf.lastError,
    challenges: counts.challenges,
    members: counts.members,
    created_at: ctf.createdAt.toISOString(),
    updated_at: ctf.updatedAt.toISOString(),
    deployed_at: iso(ctf.deployedAt),
    archived_at: iso(ctf.archivedAt),
  };
}

export function toMemberView(member: Member): MemberView {
  return {
    id: member.id,
    managed_ctf_id: member.ctfId,
    email: member.email,
    status: member.status,
    self_enrolled: member.selfEnrolled,
    invitations: member.invitations,
    score: member.score,
    invited_at: member.invitedAt.toISOString(),
    joined_at: iso(member.joinedAt),
  };
}
