import type { Challenge, Ctf, Deployment, Member } from "@/db/schema";

/** A failure of the hosting platform: the resource goes to its `*_failed` state, retryable. */
export class HostError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "HostError";
  }
}

/**
 * One account of a competition's scoreboard as its host ranks it. On the built-in host every
 * account is a member; on CTFd an account is matched to a member by e-mail address, and one
 * we do not know has `member_id` and `email` null (`platform_account_id` is CTFd's id).
 */
export type HostStanding = {
  pos: number;
  member_id: string | null;
  /** The account's id on an external host (CTFd); absent on the built-in host. */
  platform_account_id?: number;
  name: string;
  email: string | null;
  score: number;
  solves: number;
  last_solve_at: string | null;
  /** Teams mode (built-in host): the team the entry is; an external host's standings leave it out. */
  team_id?: string | null;
  /** Challenges this account solved first, where the host marks it (else derived from the solves). */
  first_blood?: string[];
};
export type HostSolve = { member_id: string | null; team_id?: string | null; platform_account_id?: number; challenge_id: string; points: number; solved_at: string; first_blood?: boolean };
/** Submissions per challenge: counts only, never what was submitted. */
export type HostAttempts = { challenge_id: string; attempts: number; correct: number };
/** A competition's standings: the scoreboard (in its order), every solve (oldest first), attempts per challenge. */
export type HostStandings = { scores: HostStanding[]; solves: HostSolve[]; attempts: HostAttempts[] };
/** What a host is told to read the standings: the competition's challenges (their platform ids) and members (to match accounts). */
export type StandingsContext = {
  challenges: Pick<Challenge, "id" | "points" | "platformChallengeId">[];
  members: Pick<Member, "id" | "email">[];
};

/**
 * A file the host is to carry with a challenge: an uploaded challenge file or a generated
 * challenge's artifact file. The CTFd host uploads it and calls `record` with CTFd's id at
 * once; `record` answers false when another run recorded a copy of that file first, and the
 * copy just made is then deleted, so retries and concurrent runs leave one copy. The
 * built-in host serves files itself and ignores them.
 */
export type HostFile = {
  name: string;
  contentType: string;
  bytes(): Promise<Uint8Array>;
  record(platformFileId: number): Promise<boolean>;
};

/**
 * The third-party competition platform, behind one interface. `builtin` (the app serves
 * the competition itself) is the embedded default; `ctfd` drives a CTFd instance through
 * its REST API.
 */
export interface CompetitionHost {
  readonly kind: "builtin" | "ctfd";
  /** Deploys the competition with its settings (mode, team size, freeze: `configureCompetition`). */
  deployCompetition(ctf: Ctf): Promise<{ url: string }>;
  /** Applies a deployed competition's changed settings (mode, team size, freeze); the built-in host reads them from our tables. */
  configureCompetition(ctf: Ctf): Promise<void>;
  teardownCompetition(ctf: Ctf): Promise<void>;
  /**
   * Publishes the challenge with its flag, hints, tags, scoring, attempt cap and the `files` not
   * yet on the host (before players see it); `prerequisites`: the host's ids of the challenges it
   * requires (every one already on the host).
   */
  publishChallenge(ctf: Ctf, challenge: Challenge, flag: string, files: HostFile[], prerequisites?: number[]): Promise<{ platformChallengeId: number }>;
  /** Adds a file to the host's copy of an already published (or since unpublished) challenge. */
  addChallengeFile(ctf: Ctf, challenge: Challenge, file: HostFile): Promise<void>;
  /** Removes a file the host carries by its id; one already gone is not an error. */
  removeChallengeFile(platformFileId: number): Promise<void>;
  unpublishChallenge(ctf: Ctf, challenge: Challenge): Promise<void>;
  deployChallenge(deployment: Deployment, challenge: Challenge): Promise<{ url: string }>;
  stopChallenge(deployment: Deployment): Promise<void>;
  /** The competition's scoreboard, solves and attempt counts, as the host keeps them (the built-in host: our tables). */
  readStandings(ctf: Ctf, context: StandingsContext): Promise<HostStandings>;
}
