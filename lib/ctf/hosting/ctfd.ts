import { publishChallenge, unpublishChallenge } from "./ctfd-challenges";
import { ctfdClient, type CtfdClient, type CtfdConfig } from "./ctfd-client";
import { removeChallengeFile, uploadChallengeFile } from "./ctfd-files";
import { readCtfdStandings } from "./ctfd-standings";
import type { Ctf } from "@/db/schema";
import type { CompetitionHost } from "./types";
import { HostError } from "./types";

export type { CtfdConfig } from "./ctfd-client";

/**
 * The competition's settings as CTFd's configs (`PATCH /api/v1/configs`, every value a string as
 * CTFd's ConfigSchema takes it; "" unsets): `user_mode` users or teams, `team_size` (unset: no
 * limit) and `freeze` (Unix seconds; unset: never frozen).
 */
async function configure(client: CtfdClient, ctf: Ctf): Promise<void> {
  await client.request("PATCH", "/configs", {
    user_mode: ctf.mode === "teams" ? "teams" : "users",
    team_size: ctf.teamSizeMax === null ? "" : String(ctf.teamSizeMax),
    freeze: ctf.freezeAt === null ? "" : String(Math.floor(ctf.freezeAt.getTime() / 1000)),
  });
}

/**
 * CTFd through its REST API (`/api/v1`, `Authorization: Token …`): a competition is the
 * configured CTFd instance; publishing creates the challenge with its flag, hints and files,
 * and unpublishing hides it. Standalone deployments are served by the app (CTFd has no
 * per-challenge deployments).
 */
export function ctfdHost(config: CtfdConfig, fallbackUrl: (deploymentId: string) => string): CompetitionHost {
  const client = ctfdClient(config);
  return {
    kind: "ctfd",
    async deployCompetition(ctf) {
      await client.request("GET", "/challenges?view=admin");
      await configure(client, ctf);
      return { url: client.base };
    },
    async configureCompetition(ctf) {
      await configure(client, ctf);
    },
    async teardownCompetition() {},
    async publishChallenge(_ctf, challenge, flag, files, prerequisites) {
      return publishChallenge(client, challenge, flag, files, prerequisites);
    },
    async unpublishChallenge(_ctf, challenge) {
      if (!challenge.platformChallengeId) throw new HostError("The challenge has no CTFd id.");
      await unpublishChallenge(client, challenge.platformChallengeId);
    },
    async addChallengeFile(_ctf, challenge, file) {
      if (!challenge.platformChallengeId) throw new HostError("The challenge has no CTFd id.");
      await uploadChallengeFile(client, challenge.platformChallengeId, file);
    },
    async removeChallengeFile(platformFileId) {
      await removeChallengeFile(client, platformFileId);
    },
    async deployChallenge(deployment) {
      return { url: fallbackUrl(deployment.id) };
    },
    async stopChallenge() {},
    async readStandings(_ctf, context) {
      return readCtfdStandings(client, context);
    },
  };
}
