import type { Db } from "@/db";
import { completePublish, createChallenge, publishChallenge } from "@/lib/ctf/challenges/challenges";
import { completeCtfDeploy, createCtf, deployCtf } from "@/lib/ctf/competitions/competitions";
import { inviteMember } from "@/lib/ctf/competitions/members";
import { joinAsPlayer, playerCookieName } from "@/lib/ctf/play/players";
import { createCtfInput } from "@/lib/ctf/competitions/schemas";
import type { Trainer } from "../fixtures";
import { memberTokenById } from "../tokens";
import { freshEmail } from "./common";
import type { Samples } from "./types";
import { createChallengeInput } from "@/lib/ctf/challenges/schemas";

const HOUR = 3_600_000;

/** A deployed competition of `trainer` that runs now (started an hour ago, ends tomorrow). */
export async function runningCtf(db: Db, trainer: Trainer, window: { startsAt?: Date; endsAt?: Date } = {}) {
  const startsAt = window.startsAt ?? new Date(Date.now() - HOUR);
  const endsAt = window.endsAt ?? new Date(Date.now() + 24 * HOUR);
  const ctf = await createCtf(db, trainer.workspaceId, createCtfInput.parse({ title: "Live CTF", starts_at: startsAt.toISOString(), ends_at: endsAt.toISOString(), is_public: true }));
  await deployCtf(db, trainer.workspaceId, ctf.id);
  await completeCtfDeploy(db, ctf.id);
  return ctf.id;
}

/** A published challenge of the competition (flag `CTF{warm}` unless given), with two hints. */
export async function publishedChallenge(db: Db, trainer: Trainer, ctfId: string, overrides: Record<string, unknown> = {}) {
  const input = createChallengeInput.parse({
    title: "Warm-up",
    category: "web",
    flag: "CTF{warm}",
    points: 100,
    hints: [
      { text: "Look at the page source.", cost: 10 },
      { text: "It is in a comment.", cost: 0 },
    ],
    ...overrides,
  });
  const challenge = await createChallenge(db, trainer.workspaceId, ctfId, input);
  await publishChallenge(db, trainer.workspaceId, ctfId, challenge.id);
  await completePublish(db, challenge.id);
  return challenge.id;
}

/** Invites `email` and accepts for them: the `Cookie` header that signs them in as a player. */
export async function playerOf(db: Db, trainer: Trainer, ctfId: string, email = freshEmail(), name?: string) {
  const member = await inviteMember(db, trainer.workspaceId, ctfId, { email });
  const joined = await joinAsPlayer(db, await memberTokenById(db, member.id), { name });
  return { memberId: member.id, cookie: `${playerCookieName(ctfId)}=${joined.sessionToken}` };
}

/** The player cookie made for each competition's sample params. */
const cookies = new Map<string, string>();

async function playerChallenge(db: Db, trainer: Trainer) {
  const ctf_id = await runningCtf(db, trainer);
  const challenge_id = await publishedChallenge(db, trainer, ctf_id);
  cookies.set(ctf_id, (await playerOf(db, trainer, ctf_id)).cookie);
  return { ctf_id, challenge_id };
}

export const playSamples: Samples = {
  "ctfs.scoreboard": { params: async ({ db }, trainer) => ({ ctf_id: await runningCtf(db, trainer) }) },
  "ctfs.hint-unlocks": { params: async ({ db }, trainer) => ({ ctf_id: await runningCtf(db, trainer) }) },
  "ctfs.scoreboard.ctftime": { params: async ({ db }, trainer) => ({ ctf_id: await runningCtf(db, trainer) }) },
  "play.link": { params: async ({ db }, trainer) => ({ ctf_id: await runningCtf(db, trainer) }), body: () => ({ email: freshEmail() }) },
  "play.scoreboard": { params: async ({ db }, trainer) => ({ ctf_id: await runningCtf(db, trainer) }) },
  "play.attempts.create": {
    params: ({ db }, trainer) => playerChallenge(db, trainer),
    body: () => ({ flag: "CTF{wrong}" }),
    cookie: (params) => cookies.get(params.ctf_id),
  },
  "play.hints.unlock": {
    params: async ({ db }, trainer) => ({ ...(await playerChallenge(db, trainer)), n: "1" }),
    cookie: (params) => cookies.get(params.ctf_id),
  },
};
