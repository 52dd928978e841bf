import { and, asc, eq, isNotNull, isNull } from "drizzle-orm";
import type { Db } from "@/db";
import { challengeArtifacts, challengeFiles, challenges, ctfs, type Challenge, type ChallengeFile } from "@/db/schema";
import { fileStorage } from "@/lib/platform/storage";
import { hostFor, type HostFile } from "@/lib/ctf/hosting";

/**
 * Challenge files and generated artifact files on an external host (CTFd). Publishing
 * uploads each file of the challenge that has no `platform_file_id` yet, and the artifact's
 * file likewise; each upload records CTFd's id on its row at once (only if none is recorded:
 * a concurrent or retried run that lost deletes its copy), so a retried publish uploads
 * only what is missing. While the challenge exists on CTFd (published once, hidden since
 * unpublish), a file uploaded or deleted in the dashboard follows through a scheduled step:
 * `challenge.file.upload`, `challenge.file.delete`, run outside the request's transaction
 * and retried on failure. The built-in host serves files itself: it ignores them.
 */

/** The bytes of a challenge file from the store; missing bytes fail the publish or step, naming the file. */
async function storedBytes(db: Db, file: ChallengeFile): Promise<Uint8Array> {
  const stored = await fileStorage(db).get(file.storageKey);
  if (!stored) throw new Error(`The bytes of the file "${file.name}" (${file.id}) are missing from the file storage: delete the file and upload it again.`);
  return new Uint8Array(await new Response(stored.body).arrayBuffer());
}

/** A challenge file as the host sees it: `record` writes CTFd's id only where none is recorded yet. */
function hostFileOf(db: Db, file: ChallengeFile): HostFile {
  return {
    name: file.name,
    contentType: file.contentType,
    bytes: () => storedBytes(db, file),
    async record(platformFileId) {
      const rows = await db
        .update(challengeFiles)
        .set({ platformFileId })
        .where(and(eq(challengeFiles.id, file.id), isNull(challengeFiles.platformFileId)))
        .returning({ id: challengeFiles.id });
      return rows.length > 0;
    },
  };
}

/** What the host does not carry yet of a challenge: its files (oldest first), then a generated challenge's artifact file. */
export async function filesForHost(db: Db, challenge: Challenge): Promise<HostFile[]> {
  const files = await db
    .select()
    .from(challengeFiles)
    .where(and(eq(challengeFiles.challengeId, challenge.id), isNull(challengeFiles.platformFileId)))
    .orderBy(asc(challengeFiles.createdAt), asc(challengeFiles.id));
  const [artifact] = await db
    .select({ name: challengeArtifacts.fileName, type: challengeArtifacts.fileType, data: challengeArtifacts.fileData })
    .from(challengeArtifacts)
    .where(and(eq(challengeArtifacts.challengeId, challenge.id), isNull(challengeArtifacts.platformFileId), isNotNull(challengeArtifacts.fileData), isNotNull(challengeArtifacts.fileName)));
  const hostFiles = files.map((file) => hostFileOf(db, file));
  if (artifact?.data && artifact.name) {
    const data = artifact.data;
    hostFiles.push({
      name: artifact.name,
      contentType: artifact.type ?? "application/octet-stream",
      bytes: async () => new Uint8Array(data),
      async record(platformFileId) {
        const rows = await db
          .update(challengeArtifacts)
          .set({ platformFileId })
          .where(and(eq(challengeArtifacts.challengeId, challenge.id), isNull(challengeArtifacts.platformFileId)))
          .returning({ id: challengeArtifacts.challengeId });
        return rows.length > 0;
      },
    });
  }
  return hostFiles;
}

/**
 * After a first publish failed: the host deleted the half-made challenge, and its files with
 * it, so the ids recorded during that attempt name nothing; the retry uploads them again.
 */
export async function forgetHostFiles(db: Db, challengeId: string): Promise<void> {
  await db.update(challengeFiles).set({ platformFileId: null }).where(eq(challengeFiles.challengeId, challengeId));
  await db.update(challengeArtifacts).set({ platformFileId: null }).where(eq(challengeArtifacts.challengeId, challengeId));
}

/** Whether a file change of this challenge must follow to its host: an external host that has the challenge. */
export function hostKeepsFiles(ctf: { host: string }, challenge: Pick<Challenge, "platformChallengeId">): boolean {
  return ctf.host === "ctfd" && challenge.platformChallengeId !== null;
}

/**
 * The `challenge.file.upload` step: a file uploaded while the challenge exists on CTFd goes
 * there too. Nothing to do when the file is gone, already there (a publish took it), or the
 * challenge is not on an external host. A host failure throws: the step is retried.
 */
export async function completeFileUpload(db: Db, fileId: string): Promise<void> {
  const [row] = await db
    .select({ file: challengeFiles, challenge: challenges, ctf: ctfs })
    .from(challengeFiles)
    .innerJoin(challenges, eq(challenges.id, challengeFiles.challengeId))
    .innerJoin(ctfs, eq(ctfs.id, challenges.ctfId))
    .where(eq(challengeFiles.id, fileId));
  if (!row || row.file.platformFileId !== null || !hostKeepsFiles(row.ctf, row.challenge)) return;
  await hostFor(row.ctf.host, db).addChallengeFile(row.ctf, row.challenge, hostFileOf(db, row.file));
}

/** The `challenge.file.delete` step: a file deleted here is deleted from CTFd (one CTFd no longer has counts as deleted). */
export async function completeFileRemoval(db: Db, platformFileId: number): Promise<void> {
  await hostFor("ctfd", db).removeChallengeFile(platformFileId);
}
