import type { Challenge } from "@/db/schema";
import type { ChallengeView } from "./schemas";

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
