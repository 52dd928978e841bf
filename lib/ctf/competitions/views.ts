import type { Challenge, Ctf, Deployment, Member } from "@/db/schema";
import type { ChallengeView, CtfView, DeploymentView, MemberView } from "./schemas";

const iso = (date: Date | null) => date?.toISOString() ?? null;

export function toCtfView(ctf: Ctf, counts: { challenges: number; members: number }): CtfView {
  return {
    id: ctf.id,
    title: ctf.title,
    description: ctf.description,
    starts_at: ctf.startsAt.toISOString(),
    ends_at: ctf.endsAt.toISOString(),
    is_public: ctf.isPublic,
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

export function toChallengeView(challenge: Challenge): ChallengeView {
  return {
    id: challenge.id,
    managed_ctf_id: challenge.ctfId,
    title: challenge.title,
    category: challenge.category,
    difficulty: challenge.difficulty,
    description: challenge.description,
    points: challenge.points,
    flag_mode: challenge.flagMode,
    hints: challenge.hints,
    template: challenge.template,
    status: challenge.status,
    platform_challenge_id: challenge.platformChallengeId,
    last_error: challenge.lastError,
    created_at: challenge.createdAt.toISOString(),
    updated_at: challenge.updatedAt.toISOString(),
  };
}

export function toDeploymentView(deployment: Deployment): DeploymentView {
  return {
    id: deployment.id,
    challenge_id: deployment.challengeId,
    status: deployment.status,
    url: deployment.url,
    starts_at: deployment.startsAt.toISOString(),
    ends_at: deployment.endsAt.toISOString(),
    stop_reason: deployment.stopReason,
    last_error: deployment.lastError,
    created_at: deployment.createdAt.toISOString(),
    live_at: iso(deployment.liveAt),
    stopped_at: iso(deployment.stoppedAt),
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
