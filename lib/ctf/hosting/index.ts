import type { Db } from "@/db";
import { appUrl, config } from "@/lib/kernel/config/config";
import { builtinHost, type OwnStandings } from "./builtin";
import { ctfdHost } from "./ctfd";
import { HostError, type CompetitionHost } from "./types";

export { type OwnStandings } from "./builtin";
export { HostError, type CompetitionHost, type HostFile, type HostSolve, type HostStanding, type HostStandings, type StandingsContext } from "./types";

/** CTFd when CTFD_URL and CTFD_TOKEN are set; otherwise the built-in host. */
export function configuredHostKind(): "builtin" | "ctfd" {
  return config().ctfd ? "ctfd" : "builtin";
}

/** `ownStandings`: what the built-in host reads standings with (only lib/ctf/play/standings.ts reads them). */
export function hostFor(kind: string, db: Db, ownStandings?: OwnStandings): CompetitionHost {
  if (kind === "ctfd") {
    const ctfd = config().ctfd;
    if (!ctfd) return failingHost("CTFD_URL and CTFD_TOKEN are not configured.");
    return ctfdHost(ctfd, (id) => `${appUrl()}/d/${id}`);
  }
  return builtinHost(db, ownStandings);
}

/** What a host failure says, for `last_error` and the 503s that name it. */
export function describeHostError(error: unknown): string {
  return (error instanceof HostError ? error.message : `Unexpected error: ${(error as Error).message ?? error}`).slice(0, 500);
}

function failingHost(message: string): CompetitionHost {
  const fail = async (): Promise<never> => {
    throw new HostError(message);
  };
  return {
    kind: "ctfd",
    deployCompetition: fail,
    configureCompetition: fail,
    teardownCompetition: fail,
    publishChallenge: fail,
    unpublishChallenge: fail,
    addChallengeFile: fail,
    removeChallengeFile: fail,
    deployChallenge: fail,
    stopChallenge: fail,
    readStandings: fail,
  };
}
