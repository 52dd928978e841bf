import { eq, inArray } from "drizzle-orm";
import type { Db } from "@/db";
import { challengeFiles, challenges } from "@/db/schema";
import { logger } from "@/lib/kernel/log";
import { fileStorage } from "@/lib/platform/storage";

/**
 * The bytes of a challenge's files outlive their rows unless removed: deleting a challenge
 * or a competition first deletes its file rows (in its transaction, taking their storage
 * keys), then, once committed, the stored bytes.
 */

/** Deletes the file rows of a challenge, or of every challenge of a competition; answers their storage keys. */
export async function deleteFileRows(tx: Db, of: { challengeId: string } | { ctfId: string }): Promise<string[]> {
  const where =
    "challengeId" in of
      ? eq(challengeFiles.challengeId, of.challengeId)
      : inArray(challengeFiles.challengeId, tx.select({ id: challenges.id }).from(challenges).where(eq(challenges.ctfId, of.ctfId)));
  const removed = await tx.delete(challengeFiles).where(where).returning({ key: challengeFiles.storageKey });
  return removed.map((row) => row.key);
}

/**
 * Removes stored bytes whose rows are gone. Best effort: the rows are already deleted, so a
 * store that fails leaves an unreachable object, which is logged (with its key) rather than
 * failing the request that deleted it.
 */
export async function removeStoredBytes(db: Db, keys: string[]): Promise<void> {
  if (!keys.length) return;
  const storage = fileStorage(db);
  for (const key of keys) {
    await storage.delete(key).catch(() => logger().warn({ context: "file-storage", storage_key: key }, "stored file left behind: delete it from the store by hand"));
  }
}
