import type { CtfdClient } from "./ctfd-client";
import type { HostFile } from "./types";
import { HostError } from "./types";

/**
 * Uploads one file to CTFd's challenge `platformChallengeId` (`POST /api/v1/files`,
 * `type=challenge`) and records CTFd's id at once. If another run recorded a copy first,
 * or recording fails, the copy just made is deleted again (best effort when recording
 * failed: at worst a duplicate stays), so a retry never leaves two.
 */
export async function uploadChallengeFile(client: CtfdClient, platformChallengeId: number, file: HostFile): Promise<void> {
  const form = new FormData();
  form.set("challenge", String(platformChallengeId));
  form.set("type", "challenge");
  form.set("file", new Blob([(await file.bytes()) as Uint8Array<ArrayBuffer>], { type: file.contentType }), file.name);
  const [uploaded] = (await client.request<{ id?: unknown }[] | undefined>("POST", "/files", form)) ?? [];
  if (typeof uploaded?.id !== "number" || !Number.isInteger(uploaded.id)) throw new HostError("CTFd answered an upload without a file id.");
  const id = uploaded.id;
  let kept: boolean;
  try {
    kept = await file.record(id);
  } catch (error) {
    await removeChallengeFile(client, id).catch(() => undefined);
    throw error;
  }
  if (!kept) await removeChallengeFile(client, id);
}

/** `DELETE /api/v1/files/{id}`; a file CTFd no longer has (404) is already removed. */
export async function removeChallengeFile(client: CtfdClient, platformFileId: number): Promise<void> {
  await client.call("DELETE", `/files/${platformFileId}`, undefined, { missingIsNull: true });
}
