import { AppError } from "@/lib/kernel/errors";
import { describeError, logger } from "@/lib/kernel/log";

/** What a store gives back for a key: the size, and the bytes as a stream. */
export type StoredObject = { size: number; body: ReadableStream<Uint8Array> };

/**
 * Where file bytes live, behind one interface (./index.ts picks the configured one):
 * - `filesystem`: a folder (`.data/files` by default; the embedded default),
 * - `database`: the `stored_files` table (the default with PostgreSQL),
 * - `s3`: any S3-compatible object store (AWS S3, MinIO, R2…), signed with SigV4.
 *
 * Keys are made by the app (`challenge-files/{workspace}/{file}`), never from a user's
 * file name; every store refuses a key of another shape. `put` replaces, `get` answers
 * null for a missing key, `delete` of a missing key is not an error. A store that cannot
 * answer throws a 503 `service_unavailable` (the cause is logged), never a 500.
 */
export interface FileStorage {
  readonly kind: "filesystem" | "database" | "s3";
  put(key: string, bytes: Uint8Array, meta: { contentType: string; sha256: string }): Promise<void>;
  get(key: string): Promise<StoredObject | null>;
  delete(key: string): Promise<void>;
}

const KEY = /^[a-z][a-z0-9-]*(\/[A-Za-z0-9_-]+)+$/;

/** Keys are segments of letters, digits, `_` and `-` joined by `/`: no `..`, no absolute path, nothing to escape. */
export function assertStorageKey(key: string): void {
  if (!KEY.test(key) || key.length > 200) throw new Error(`Not a storage key: ${JSON.stringify(key.slice(0, 80))}`);
}

/** The 503 a failing store answers; the cause (and what the store said: `detail`) goes to the log, not to the client. */
export function storageUnavailable(kind: FileStorage["kind"], operation: string, cause: unknown, detail: Record<string, unknown> = {}): AppError {
  logger().error({ context: "file-storage", storage: kind, operation, ...detail, err: describeError(cause) }, "file storage failed");
  return new AppError("service_unavailable", "The file storage is unavailable. Try again in a few seconds.", { retryAfter: 5 });
}

/** A whole byte array as a stream. */
export function streamOf(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      if (bytes.byteLength) controller.enqueue(bytes);
      controller.close();
    },
  });
}
