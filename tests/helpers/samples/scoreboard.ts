import { runningCtf } from "./play";
import type { Samples } from "./types";

/** The score graph of a running competition's page (public: no credentials). */
export const scoreboardSamples: Samples = {
  "play.scoreboard.graph": { params: async ({ db }, trainer) => ({ ctf_id: await runningCtf(db, trainer) }) },
};
