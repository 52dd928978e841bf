import type { Db } from "@/db";
import { completePublish, createChallenge, publishChallenge } from "@/lib/ctf/challenges/challenges";
import { createCtf } from "@/lib/ctf/competitions/competitions";
import { uploadChallengeFile } from "@/lib/ctf/challenges/files/files";
import { createCtfInput } from "@/lib/ctf/competitions/schemas";
import type { Trainer } from "../fixtures";
import { playerOf, runningCtf } from "./play";
import type { Samples } from "./types";
import { createChallengeInput } from "@/lib/ctf/challenges/schemas";

/** The bytes of the sample file: not text, so nothing about them is guessed. */
export const sampleFileBytes = new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00, 0xff, 0xfe]);

/** A multipart body with one file in the `file` part, as `curl -F file=@…` sends it. */
export function fileForm(name = "challenge.bin", bytes: Uint8Array = sampleFileBytes, type = "application/octet-stream"): FormData {
  const form = new FormData();
  form.append("file", new File([bytes as BlobPart], name, { type }));
  return form;
}

const challengeInput = { title: "Files inside", category: "forensics" as const, flag: "CTF{carved}", points: 100 };

/** A draft challenge of `trainer` in a competition of its own (files can change). */
export async function draftChallenge(db: Db, trainer: Trainer, ctfId?: string) {
  const ctf_id = ctfId ?? (await createCtf(db, trainer.workspaceId, createCtfInput.parse({ title: "Files CTF", starts_at: "2026-12-01T10:00:00Z", ends_at: "2026-12-02T10:00:00Z" }))).id;
  const challenge = await createChallenge(db, trainer.workspaceId, ctf_id, createChallengeInput.parse(challengeInput));
  return { ctf_id, challenge_id: challenge.id };
}

/** Stores a file with a challenge through the domain, as the upload route would. */
export async function storedFile(db: Db, trainer: Trainer, params: { ctf_id: string; challenge_id: string }, name = "challenge.bin", bytes = sampleFileBytes) {
  const file = await uploadChallengeFile(db, trainer.workspaceId, params.ctf_id, params.challenge_id, { name, contentType: "application/octet-stream", bytes });
  return file.id;
}

/** A running competition with a published challenge carrying one file, and a player's cookie. */
export async function playableFile(db: Db, trainer: Trainer) {
  const ctfId = await runningCtf(db, trainer);
  const params = await draftChallenge(db, trainer, ctfId);
  const file_id = await storedFile(db, trainer, params);
  await publishChallenge(db, trainer.workspaceId, params.ctf_id, params.challenge_id);
  await completePublish(db, params.challenge_id);
  const { cookie } = await playerOf(db, trainer, ctfId);
  return { params: { ...params, file_id }, cookie };
}

const cookies = new Map<string, string>();

export const fileSamples: Samples = {
  "challenges.files.list": { params: ({ db }, trainer) => draftChallenge(db, trainer) },
  "challenges.files.upload": { params: ({ db }, trainer) => draftChallenge(db, trainer), body: () => fileForm() },
  "challenges.files.download": {
    params: async ({ db }, trainer) => {
      const params = await draftChallenge(db, trainer);
      return { ...params, file_id: await storedFile(db, trainer, params) };
    },
  },
  "challenges.files.delete": {
    params: async ({ db }, trainer) => {
      const params = await draftChallenge(db, trainer);
      return { ...params, file_id: await storedFile(db, trainer, params) };
    },
  },
  "play.files.download": {
    params: async ({ db }, trainer) => {
      const { params, cookie } = await playableFile(db, trainer);
      cookies.set(params.ctf_id, cookie);
      return params;
    },
    cookie: (params) => cookies.get(params.ctf_id),
  },
};
