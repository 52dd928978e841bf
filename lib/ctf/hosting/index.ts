import type { Db } from "@/db";
import { appUrl } from "@/lib/email/config";
import { builtinHost } from "./builtin";
import { ctfdHost } from "./ctfd";
import { HostError, type CompetitionHost } from "./types";

export { HostError, type CompetitionHost } from "./types";

/** CTFd when CTFD_URL and CTFD_TOKEN are set; otherwise the built-in host. */
export function configuredHostKind(): "builtin" | "ctfd" {
  return process.env.CTFD_URL && process.env.CTFD_TOKEN ? "ctfd" : "builtin";
}

export function hostFor(kind: string, db: Db): CompetitionHost {
  if (kind === "ctfd") {
    if (!process.env.CTFD_URL || !process.env.CTFD_TOKEN) return failingHost("CTFD_URL and CTFD_TOKEN are not configured.");
    return ctfdHost({ url: process.env.CTFD_URL, token: process.env.CTFD_TOKEN }, (id) => `${appUrl()}/d/${id}`);
  }
  return builtinHost(db);
}

function failingHost(message: string): CompetitionHost {
  const fail = async (): Promise<never> => {
    throw new HostError(message);
  };
  return {
    kind: "ctfd",
    deployCompetition: fail,
    teardownCompetition: fail,
    publishChallenge: fail,
    unpublishChallenge: fail,
    deployChallenge: fail,
    stopChallenge: fail,
  };
}
