import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db";
import { HostError, type CompetitionHost, type HostStandings } from "./types";
import { appUrl } from "@/lib/kernel/config/config";

/**
 * The built-in host: the app itself serves a deployed competition at /c/{ctf_id} and a
 * standalone deployment at /d/{deployment_id}. Platform challenge ids come from a sequence;
 * the standings are read from our own tables by `ownStandings`, which the caller hands in
 * (lib/ctf/play/standings.ts: the adapter imports no domain code). Files are served from our
 * own storage.
 */
export function builtinHost(db: Db, ownStandings?: OwnStandings): CompetitionHost {
  return {
    kind: "builtin",
    async deployCompetition(ctf) {
      return { url: `${appUrl()}/c/${ctf.id}` };
    },
    // Mode, team size and freeze are read from the competition's row where they apply.
    async configureCompetition() {},
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
      if (!ownStandings) throw new HostError("The built-in host's standings are read through lib/ctf/play/standings.ts.");
      return ownStandings(db, ctf.id);
    },
  };
}

/** How the built-in host reads a competition's standings from our own tables (lib/ctf/play/scoreboard.ts, builtinStandings). */
export type OwnStandings = (db: Db, ctfId: string) => Promise<HostStandings>;
