import { publishChallenge, unpublishChallenge } from "./ctfd-challenges";
import { ctfdClient, type CtfdConfig } from "./ctfd-client";
import { removeChallengeFile, uploadChallengeFile } from "./ctfd-files";
import { readCtfdStandings } from "./ctfd-standings";
import type { CompetitionHost } from "./types";
import { HostError } from "./types";

export type { CtfdConfig } from "./ctfd-client";

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
    async deployCompetition() {
      await client.request("GET", "/challenges?view=admin");
      return { url: client.base };
    },
    async teardownCompetition() {},
    async publishChallenge(_ctf, challenge, flag, files) {
      return publishChallenge(client, challenge, flag, files);
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
