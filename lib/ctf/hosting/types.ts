import type { Challenge, Ctf, Deployment } from "@/db/schema";

/** A failure of the hosting platform: the resource goes to its `*_failed` state, retryable. */
export class HostError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "HostError";
  }
}

/**
 * The third-party competition platform, behind one interface. `builtin` (the app serves
 * the competition itself) is the embedded default; `ctfd` drives a CTFd instance through
 * its REST API.
 */
export interface CompetitionHost {
  readonly kind: "builtin" | "ctfd";
  deployCompetition(ctf: Ctf): Promise<{ url: string }>;
  teardownCompetition(ctf: Ctf): Promise<void>;
  publishChallenge(ctf: Ctf, challenge: Challenge, flag: string): Promise<{ platformChallengeId: number }>;
  unpublishChallenge(ctf: Ctf, challenge: Challenge): Promise<void>;
  deployChallenge(deployment: Deployment, challenge: Challenge): Promise<{ url: string }>;
  stopChallenge(deployment: Deployment): Promise<void>;
}
