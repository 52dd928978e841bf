import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db";
import { builtinStandings } from "@/lib/ctf/play/scoreboard";
import type { CompetitionHost } from "./types";
import { appUrl } from "@/lib/kernel/config/config";

/**
 * The built-in host: the app itself serves a deployed competition at /c/{ctf_id} and a
 * standalone deployment at /d/{deployment_id}. Platform challenge ids come from a sequence;
 * the standings are read from our own tables. Files are served from our own storage.
 */
export function builtinHost(db: Db): CompetitionHost {
  return {
    kind: "builtin",
    async deployCompetition(ctf) {
      return { url: `${appUrl()}/c/${ctf.id}` };
    },
    async teardownCompetition() {},
    async publishChallenge() {
      const result = await db.execute(sql`select nextval('builtin_platform_challenge_seq')::int as id`);
      return { platformChallengeId: rowsOf<{ id: number }>(result)[0].id };
    },
    async unpublishChallenge() {},
    // Challenge files and artifacts are served from our own storage: nothing to copy.
    async addChallengeFile() {},
    async removeChallengeFile() {},
    async deployChallenge(deployment) {
      return { url: `${appUrl()}/d/${deployment.id}` };
    },
    async stopChallenge() {},
    // Played here: the standings are our own tables (solves, hint unlocks, attempts).
    async readStandings(ctf) {
      return builtinStandings(db, ctf.id);
    },
  };
}
