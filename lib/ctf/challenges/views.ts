import type { Challenge } from "@/db/schema";
import type { ChallengeView } from "./schemas";
import { challengeValue } from "./scoring";

/** `solveCount`: the challenge's solves so far (a dynamic challenge's `points` is its current value). */
export function toChallengeView(challenge: Challenge, solveCount = 0): ChallengeView {
  return {
    id: challenge.id,
    managed_ctf_id: challenge.ctfId,
    title: challenge.title,
    category: challenge.category,
    difficulty: challenge.difficulty,
    description: challenge.description,
    points: challengeValue(challenge.scoring, challenge.points, solveCount),
    scoring: challenge.scoring,
    requires: challenge.requires,
    max_attempts: challenge.maxAttempts,
    tags: challenge.tags,
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
