import type { Db } from "@/db";
import { config } from "@/lib/kernel/config/config";
import { databaseStorage } from "./database";
import { filesystemStorage } from "./filesystem";
import { s3Storage } from "./s3";
import type { FileStorage } from "./types";

export type { FileStorage, StoredObject } from "./types";

/**
 * The configured file storage (FILE_STORAGE; lib/kernel/config/config.ts says which is the default). The
 * database store is given the app's database, so it needs `db`.
 */
export function fileStorage(db: Db): FileStorage {
  const { storage } = config().files;
  if (storage.kind === "s3") return s3Storage(storage);
  if (storage.kind === "filesystem") return filesystemStorage(storage.dir);
  return databaseStorage(db);
}
