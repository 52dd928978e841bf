import { createHash } from "node:crypto";
import { and, asc, count, eq } from "drizzle-orm";
import type { Db } from "@/db";
import { countRows, readPage } from "@/lib/kernel/paged";
import { challengeFiles, challenges, ctfs, type Challenge, type ChallengeFile } from "@/db/schema";
import type { Page, Paging } from "@/lib/kernel/paging";
import type { Download } from "@/lib/platform/http/download";
import type { UploadedFile } from "@/lib/platform/http/upload";
import { conflict, invalidFields, notFound } from "@/lib/kernel/errors";
import { newId } from "@/lib/kernel/ids";
import { logger } from "@/lib/kernel/log";
import { fileStorage } from "@/lib/platform/storage";
import { editable, findChallenge } from "@/lib/ctf/challenges/challenges";
import { findCtf } from "@/lib/ctf/competitions/competitions";
import { removeStoredBytes } from "@/lib/ctf/competitions/stored-files";
import { hostKeepsFiles } from "@/lib/ctf/challenges/host-files";
import { fileNameProblem, MAX_FILES_PER_CHALLENGE, normaliseContentType } from "./rules";
import type { ChallengeFileView, PlayerFileView } from "./schemas";
import { scheduleStep } from "@/lib/ctf/steps";

/**
 * Challenge files: uploaded by the organiser while the challenge can be edited, kept in the
 * configured file storage (lib/storage) under a key the app makes, downloaded by the
 * competition's players while it runs (and by a standalone deployment's players while it is
 * live: ./deployment-content.ts). A file's row says what it is (name, size, type,
 * SHA-256) and where its bytes are; the bytes go in first and the row second, so a row
 * always names stored bytes. On CTFd, publishing uploads the files and later changes follow
 * through scheduled steps (./host-files.ts).
 */

/** A file to send: what the response says about it, and its bytes. */
export type FileDownload = Download;

function toFileView(file: ChallengeFile): ChallengeFileView {
  return {
    id: file.id,
    challenge_id: file.challengeId,
    name: file.name,
    size: file.size,
    content_type: file.contentType,
    sha256: file.sha256,
    created_at: file.createdAt.toISOString(),
  };
}

/** 409 unless the competition is open and the challenge in an editable state (the rule of PATCH). */
function assertFilesCanChange(ctfStatus: string, challenge: Challenge): void {
  if (ctfStatus === "archived") throw conflict("The competition is archived: its challenges can no longer change.");
  if (editable.includes(challenge.status)) return;
  const published = challenge.status === "published" || challenge.status === "unpublish_failed";
  throw conflict(`The files of a ${challenge.status} challenge cannot change; ${published ? "unpublish it first" : `try again once it is no longer ${challenge.status}`}.`);
}

async function fileCount(db: Db, challengeId: string): Promise<number> {
  const [{ n }] = await db.select({ n: count() }).from(challengeFiles).where(eq(challengeFiles.challengeId, challengeId));
  return n;
}

function assertRoom(files: number): void {
  if (files >= MAX_FILES_PER_CHALLENGE) throw conflict(`A challenge carries at most ${MAX_FILES_PER_CHALLENGE} files: delete one first.`);
}

export async function listChallengeFiles(db: Db, workspaceId: string, ctfId: string, challengeId: string, paging: Paging): Promise<Page<ChallengeFileView>> {
  await findChallenge(db, workspaceId, ctfId, challengeId);
  const where = and(eq(challengeFiles.challengeId, challengeId), eq(challengeFiles.workspaceId, workspaceId));
  return readPage(paging, db.select().from(challengeFiles).where(where).orderBy(asc(challengeFiles.createdAt), asc(challengeFiles.id)), countRows(db, challengeFiles, where), toFileView);
}

/**
 * Stores an uploaded file with a challenge. Order: the name (422 on `file`), the challenge
 * (404), its state and the file count (409), then the bytes go to the store, then the row
 * is written under the challenge's row lock, with the state and count checked again; if
 * that fails, the stored bytes are removed.
 */
export async function uploadChallengeFile(db: Db, workspaceId: string, ctfId: string, challengeId: string, file: UploadedFile): Promise<ChallengeFileView> {
  const problem = fileNameProblem(file.name);
  if (problem) throw invalidFields([{ field: "file", message: problem }]);
  const ctf = await findCtf(db, workspaceId, ctfId);
  assertFilesCanChange(ctf.status, await findChallenge(db, workspaceId, ctfId, challengeId));
  assertRoom(await fileCount(db, challengeId));

  const id = newId("fil");
  const storageKey = `challenge-files/${workspaceId}/${id}`;
  const contentType = normaliseContentType(file.contentType);
  const sha256 = createHash("sha256").update(file.bytes).digest("hex");
  const storage = fileStorage(db);
  await storage.put(storageKey, file.bytes, { contentType, sha256 });
  try {
    const row = await db.transaction(async (tx) => {
      const challenge = await findChallenge(tx, workspaceId, ctfId, challengeId, true);
      const [current] = await tx.select({ status: ctfs.status }).from(ctfs).where(eq(ctfs.id, ctfId));
      assertFilesCanChange(current?.status ?? "archived", challenge);
      assertRoom(await fileCount(tx, challengeId));
      const [inserted] = await tx
        .insert(challengeFiles)
        .values({ id, challengeId, workspaceId, name: file.name, size: file.bytes.byteLength, contentType, sha256, storageKey })
        .returning();
      // The challenge is on CTFd (hidden since unpublish): the file follows, after this commits.
      if (hostKeepsFiles(ctf, challenge)) await scheduleStep(tx, workspaceId, "challenge.file.upload", { fileId: id }, new Date());
      return inserted;
    });
    return toFileView(row);
  } catch (error) {
    await removeStoredBytes(db, [storageKey]);
    throw error;
  }
}

/** Deletes a file of a challenge (while the challenge can be edited): the row, then its bytes. */
export async function deleteChallengeFile(db: Db, workspaceId: string, ctfId: string, challengeId: string, fileId: string): Promise<{ deleted: true; id: string }> {
  const key = await db.transaction(async (tx) => {
    const ctf = await findCtf(tx, workspaceId, ctfId);
    const challenge = await findChallenge(tx, workspaceId, ctfId, challengeId, true);
    const [file] = await tx
      .select({ id: challengeFiles.id })
      .from(challengeFiles)
      .where(and(eq(challengeFiles.id, fileId), eq(challengeFiles.challengeId, challenge.id), eq(challengeFiles.workspaceId, workspaceId)));
    if (!file) throw notFound("File");
    assertFilesCanChange(ctf.status, challenge);
    const [removed] = await tx
      .delete(challengeFiles)
      .where(eq(challengeFiles.id, file.id))
      .returning({ key: challengeFiles.storageKey, platformFileId: challengeFiles.platformFileId });
    // Its copy on CTFd goes too, after this commits. One not uploaded yet is deleted by the upload that finds the row gone.
    if (removed.platformFileId !== null && ctf.host === "ctfd") {
      await scheduleStep(tx, workspaceId, "challenge.file.delete", { platformFileId: removed.platformFileId }, new Date());
    }
    return removed.key;
  });
  await removeStoredBytes(db, [key]);
  return { deleted: true, id: fileId };
}

/** The bytes of a file row; a row whose bytes are missing from the store is a 404 (and logged). */
async function download(db: Db, file: ChallengeFile): Promise<FileDownload> {
  const stored = await fileStorage(db).get(file.storageKey);
  if (!stored) {
    logger().warn({ context: "file-storage", file_id: file.id, storage_key: file.storageKey }, "a challenge file's bytes are missing from the store");
    throw notFound("File");
  }
  return { name: file.name, contentType: file.contentType, size: stored.size, sha256: file.sha256, body: stored.body };
}

/** The organiser's download of a file of their challenge, in any state. */
export async function organiserFileDownload(db: Db, workspaceId: string, ctfId: string, challengeId: string, fileId: string): Promise<FileDownload> {
  const challenge = await findChallenge(db, workspaceId, ctfId, challengeId);
  const [file] = await db
    .select()
    .from(challengeFiles)
    .where(and(eq(challengeFiles.id, fileId), eq(challengeFiles.challengeId, challenge.id), eq(challengeFiles.workspaceId, workspaceId)));
  if (!file) throw notFound("File");
  return download(db, file);
}

/**
 * The bytes of file `fileId` of challenge `challengeId`, for a caller the rules of its route
 * already let in (a competition's player, a standalone deployment's): another challenge's
 * file, an unknown one or bytes missing from the store → 404.
 */
export async function challengeFileDownload(db: Db, challengeId: string, fileId: string): Promise<FileDownload> {
  const [file] = await db.select().from(challengeFiles).where(and(eq(challengeFiles.id, fileId), eq(challengeFiles.challengeId, challengeId)));
  if (!file) throw notFound("File");
  return download(db, file);
}

const playerFileColumns = { challengeId: challengeFiles.challengeId, id: challengeFiles.id, name: challengeFiles.name, size: challengeFiles.size, sha256: challengeFiles.sha256 };

/** The files of a competition's published challenges, by challenge: what its players' page lists while it runs. */
export async function playerFiles(db: Db, ctfId: string): Promise<Record<string, PlayerFileView[]>> {
  const rows = await db
    .select(playerFileColumns)
    .from(challengeFiles)
    .innerJoin(challenges, eq(challenges.id, challengeFiles.challengeId))
    .where(and(eq(challenges.ctfId, ctfId), eq(challenges.status, "published")))
    .orderBy(asc(challengeFiles.createdAt), asc(challengeFiles.id));
  const byChallenge: Record<string, PlayerFileView[]> = {};
  for (const { challengeId, ...file } of rows) (byChallenge[challengeId] ??= []).push(file);
  return byChallenge;
}

/** The files of one challenge, oldest first, as a player's page lists them (a standalone deployment's page). */
export async function playerFilesOf(db: Db, challengeId: string): Promise<PlayerFileView[]> {
  const rows = await db.select(playerFileColumns).from(challengeFiles).where(eq(challengeFiles.challengeId, challengeId)).orderBy(asc(challengeFiles.createdAt), asc(challengeFiles.id));
  return rows.map(({ challengeId: _challenge, ...file }) => file);
}
