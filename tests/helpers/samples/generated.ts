import type { Db } from "@/db";
import { completeGeneration, completePublish, publishChallenge, requestGeneratedChallenge } from "@/lib/ctf/challenges/challenges";
import { createCtf } from "@/lib/ctf/competitions/competitions";
import { createCtfInput } from "@/lib/ctf/competitions/schemas";
import { templateCatalog, type TemplateKey } from "@/lib/ctf/templates/generate";
import type { Trainer } from "../fixtures";
import { playerOf, runningCtf } from "./play";
import type { Samples } from "./types";
import { generateChallengeInput } from "@/lib/ctf/challenges/schemas";

/** A generated challenge of `template` in the competition, built at once (the step run in place), as a draft. */
export async function generatedChallenge(db: Db, trainer: Trainer, ctfId: string, template: TemplateKey, difficulty = "easy") {
  const category = templateCatalog.find((entry) => entry.key === template)!.category;
  const input = generateChallengeInput.parse({ category, difficulty, template });
  const challenge = await requestGeneratedChallenge(db, trainer.workspaceId, ctfId, input);
  await completeGeneration(db, challenge.id, template);
  return challenge.id;
}

/** The same, published to a running competition. */
export async function publishedGenerated(db: Db, trainer: Trainer, ctfId: string, template: TemplateKey, difficulty = "easy") {
  const challengeId = await generatedChallenge(db, trainer, ctfId, template, difficulty);
  await publishChallenge(db, trainer.workspaceId, ctfId, challengeId);
  await completePublish(db, challengeId);
  return challengeId;
}

const cookies = new Map<string, string>();

/** A running competition with a published generated challenge of `template`, and a player's cookie for it. */
async function playerGenerated(db: Db, trainer: Trainer, template: TemplateKey) {
  const ctf_id = await runningCtf(db, trainer);
  const challenge_id = await publishedGenerated(db, trainer, ctf_id, template);
  cookies.set(ctf_id, (await playerOf(db, trainer, ctf_id)).cookie);
  return { ctf_id, challenge_id };
}

export const generatedSamples: Samples = {
  "challenges.reveal": {
    params: async ({ db }, trainer) => {
      const ctf = await createCtf(db, trainer.workspaceId, createCtfInput.parse({ title: "Reveal CTF", starts_at: "2027-03-01T09:00:00Z", ends_at: "2027-03-02T09:00:00Z" }));
      return { ctf_id: ctf.id, challenge_id: await generatedChallenge(db, trainer, ctf.id, "caesars-diary") };
    },
    body: () => ({ confirm: true }),
  },
  "play.artifact": { params: ({ db }, trainer) => playerGenerated(db, trainer, "layers"), cookie: (params) => cookies.get(params.ctf_id) },
  "play.artifact.file": { params: ({ db }, trainer) => playerGenerated(db, trainer, "caesars-diary"), cookie: (params) => cookies.get(params.ctf_id) },
  "play.target": {
    params: async ({ db }, trainer) => ({ ...(await playerGenerated(db, trainer, "search-party")), page: "search" }),
    cookie: (params) => cookies.get(params.ctf_id),
  },
};
