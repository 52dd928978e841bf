import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { assertStorageKey, storageUnavailable, type FileStorage } from "./types";

/**
 * Files in a folder (FILE_STORAGE_DIR, `.data/files` by default), one file per key at the
 * key's path. A put writes a temporary file beside the target and renames it over, so a
 * reader never sees half a file and two puts of one key leave one whole file.
 */
export function filesystemStorage(dir: string): FileStorage {
  const root = path.resolve(dir);
  const pathOf = (key: string) => {
    assertStorageKey(key);
    return path.join(root, ...key.split("/"));
  };
  const failed = (operation: string) => (error: unknown) => {
    throw storageUnavailable("filesystem", operation, error);
  };

  return {
    kind: "filesystem",
    async put(key, bytes) {
      const target = pathOf(key);
      const temporary = `${target}.${randomBytes(6).toString("hex")}.part`;
      try {
        await fs.promises.mkdir(path.dirname(target), { recursive: true });
        await fs.promises.writeFile(temporary, bytes);
        await fs.promises.rename(temporary, target);
      } catch (error) {
        await fs.promises.rm(temporary, { force: true }).catch(() => {});
        failed("put")(error);
      }
    },
    async get(key) {
      const file = pathOf(key);
      let handle: fs.promises.FileHandle;
      try {
        // Opened first, then measured: a delete in between cannot cut the stream short.
        handle = await fs.promises.open(file, "r");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        return failed("get")(error);
      }
      try {
        const { size } = await handle.stat();
        const body = Readable.toWeb(handle.createReadStream()) as ReadableStream<Uint8Array>;
        return { size, body };
      } catch (error) {
        await handle.close().catch(() => {});
        return failed("get")(error);
      }
    },
    async delete(key) {
      await fs.promises.rm(pathOf(key), { force: true }).catch(failed("delete"));
    },
  };
}
