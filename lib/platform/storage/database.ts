import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { storedFiles } from "@/db/schema";
import { assertStorageKey, storageUnavailable, streamOf, type FileStorage } from "./types";

/**
 * Files in the `stored_files` table (bytea): the default with PostgreSQL, so every instance
 * sees the same files with nothing else to run or back up. A file is read whole (uploads
 * are at most FILE_MAX_BYTES).
 */
export function databaseStorage(db: Db): FileStorage {
  const failed = (operation: string) => (error: unknown): never => {
    throw storageUnavailable("database", operation, error);
  };
  return {
    kind: "database",
    async put(key, bytes) {
      assertStorageKey(key);
      const row = { key, bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), size: bytes.byteLength, createdAt: new Date() };
      await db
        .insert(storedFiles)
        .values(row)
        .onConflictDoUpdate({ target: storedFiles.key, set: { bytes: row.bytes, size: row.size, createdAt: row.createdAt } })
        .catch(failed("put"));
    },
    async get(key) {
      assertStorageKey(key);
      const [row] = await db.select({ bytes: storedFiles.bytes }).from(storedFiles).where(eq(storedFiles.key, key)).catch(failed("get"));
      return row ? { size: row.bytes.byteLength, body: streamOf(row.bytes) } : null;
    },
    async delete(key) {
      assertStorageKey(key);
      await db.delete(storedFiles).where(eq(storedFiles.key, key)).catch(failed("delete"));
    },
  };
}
