import { completePublish, createChallenge, publishChallenge } from "@/lib/ctf/challenges/challenges";
import { completeCtfDeploy, createCtf, deployCtf } from "@/lib/ctf/competitions/competitions";
import { completeDeploymentDeploy, createDeployment } from "@/lib/ctf/deployments/deployments";
import { createCtfInput } from "@/lib/ctf/competitions/schemas";
import type { Db } from "@/db";
import type { Trainer } from "../fixtures";
import { freshEmail } from "./common";
import type { Samples, SampleWorld } from "./types";
import { createChallengeInput } from "@/lib/ctf/challenges/schemas";

const ctfInput = { title: "Spring CTF", starts_at: "2026-12-01T10:00:00Z", ends_at: "2026-12-02T10:00:00Z" };
const challengeInput = { title: "Warm-up", category: "web" as const, flag: "CTF{warm}", points: 50 };

async function ownCtf(db: Db, trainer: Trainer, state: "draft" | "deployed" = "draft", extra: Record<string, unknown> = {}) {
  const ctf = await createCtf(db, trainer.workspaceId, createCtfInput.parse({ ...ctfInput, ...extra }));
  if (state === "deployed") {
    await deployCtf(db, trainer.workspaceId, ctf.id);
    await completeCtfDeploy(db, ctf.id);
  }
  return { ctf_id: ctf.id };
}

async function ownChallenge(db: Db, trainer: Trainer, state: "draft" | "deployed" | "published" = "draft") {
  const { ctf_id } = await ownCtf(db, trainer, state === "draft" ? "draft" : "deployed");
  const challenge = await createChallenge(db, trainer.workspaceId, ctf_id, createChallengeInput.parse(challengeInput));
  if (state === "published") {
    await publishChallenge(db, trainer.workspaceId, ctf_id, challenge.id);
    await completePublish(db, challenge.id);
  }
  return { ctf_id, challenge_id: challenge.id };
}

async function liveDeployment(db: Db, trainer: Trainer) {
  const { challenge_id } = await ownChallenge(db, trainer);
  const deployment = await createDeployment(db, trainer.workspaceId, { challenge_id, duration_minutes: 30 });
  await completeDeploymentDeploy(db, deployment.id);
  return { deployment_id: deployment.id };
}

const ctf = ({ db }: SampleWorld, trainer: Trainer) => ownCtf(db, trainer);
const deployed = ({ db }: SampleWorld, trainer: Trainer) => ownCtf(db, trainer, "deployed");
const challenge = ({ db }: SampleWorld, trainer: Trainer) => ownChallenge(db, trainer);

export const ctfSamples: Samples = {
  "ctfs.list": {},
  "ctfs.create": { body: () => ctfInput },
  "ctfs.get": { params: ctf },
  "ctfs.update": { params: ctf, body: () => ({ title: "Renamed" }) },
  "ctfs.delete": { params: ctf },
  "ctfs.deploy": { params: ctf },
  "ctfs.stop": { params: deployed },
  "ctfs.archive": { params: deployed },
  "ctfs.snapshot": {
    params: async (world, trainer) => {
      const params = await deployed(world, trainer);
      const { archiveCtf } = await import("@/lib/ctf/play/archive");
      await archiveCtf(world.db, trainer.workspaceId, params.ctf_id);
      return params;
    },
  },
  "ctfs.join": {
    params: ({ db }, trainer) => ownCtf(db, trainer, "deployed", { is_public: true }),
    body: () => ({ email: freshEmail() }),
  },
  "challenges.list": { params: ctf },
  "challenges.create": { params: ctf, body: () => challengeInput },
  "challenges.generate": { params: ctf, body: () => ({ category: "crypto", difficulty: "medium" }) },
  "challenges.get": { params: challenge },
  "challenges.update": { params: challenge, body: () => ({ points: 75 }) },
  "challenges.delete": { params: challenge },
  "challenges.publish": { params: ({ db }, trainer) => ownChallenge(db, trainer, "deployed") },
  "challenges.unpublish": { params: ({ db }, trainer) => ownChallenge(db, trainer, "published") },
  "members.list": { params: ctf },
  "members.invite": { params: ctf, body: () => ({ email: freshEmail() }) },
  "deployments.list": {},
  "deployments.create": {
    body: async ({ db }, trainer) => ({ challenge_id: (await ownChallenge(db, trainer)).challenge_id, duration_minutes: 10 }),
    foreignBodies: async ({ db, stranger }) => ({ challenge_id: { challenge_id: (await ownChallenge(db, stranger)).challenge_id, duration_minutes: 10 } }),
  },
  "deployments.get": { params: ({ db }, trainer) => liveDeployment(db, trainer) },
  "deployments.stop": { params: ({ db }, trainer) => liveDeployment(db, trainer) },
};
