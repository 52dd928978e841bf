import { unzipSync, type UnzipFileInfo } from "fflate";
import { AppError, invalidFields } from "@/lib/kernel/errors";
import { formatBytes } from "@/lib/kernel/values";
import { ARCHIVE_MAX_ENTRIES, READ_MAX_BYTES, TABLE_MAX_BYTES } from "./limits";

/**
 * Reading a CTFd export (a zip: `db/<table>.json` and `uploads/<location>`) within bounds, so
 * that a zip bomb answers 413 or 422 and never stalls or fills the memory:
 * - the archive itself is at most ARCHIVE_MAX_BYTES (./limits.ts) (the route's body limit, 413 beyond);
 * - at most ARCHIVE_MAX_ENTRIES entries (422);
 * - only the entries the import needs are inflated: the tables it reads, then the uploads
 *   `db/files.json` names (two passes over the central directory);
 * - each is inflated into a buffer of the size the directory declares, after that size is
 *   checked (a table at most TABLE_MAX_BYTES, a file at most the configured file limit, all
 *   of them together at most READ_MAX_BYTES: 413 naming the entry). An entry that inflates to
 *   more than it declares is cut at its declared size (fflate writes into the fixed buffer):
 *   a table then fails as JSON (422), a file keeps only its declared bytes; inflating costs
 *   time linear in the compressed bytes, at most ARCHIVE_MAX_BYTES.
 */

/** The tables of CTFd's export the import reads (the others: users, solves, config… are not challenges). */
export const ctfdTables = ["challenges", "dynamic_challenge", "flags", "hints", "tags", "files"] as const;
export type CtfdTable = (typeof ctfdTables)[number];

/** A 422 about the archive, naming the entry (or the archive) in `file`. */
export function archiveProblem(message: string): AppError {
  const sentence = message.charAt(0).toUpperCase() + message.slice(1);
  return invalidFields([{ field: "file", message: sentence }], `The archive is not a CTFd export that can be imported: ${message}`);
}

function tooLarge(name: string, declared: number, limit: number): AppError {
  return new AppError("payload_too_large", `${name} inflates to ${formatBytes(declared)} (${declared} bytes), over the limit of ${formatBytes(limit)} (${limit} bytes): nothing was imported.`);
}

export type CtfdArchive = {
  /** A table's rows (`{"results": [...]}`), or null when the export has no such table. */
  tables: Record<CtfdTable, unknown[] | null>;
  /** The bytes of `uploads/<location>` for each location asked for; a location the archive lacks → 422 naming it. */
  uploads: (locations: string[], fileMaxBytes: number) => Map<string, Uint8Array>;
};

/** Inflates the entries `want` selects, counting what it reads against the shared budget. */
function inflate(bytes: Uint8Array, budget: { read: number }, want: (entry: UnzipFileInfo) => number | null): Record<string, Uint8Array> {
  let entries = 0;
  try {
    return unzipSync(bytes, {
      filter: (entry) => {
        if (++entries > ARCHIVE_MAX_ENTRIES) throw archiveProblem(`the archive holds more than ${ARCHIVE_MAX_ENTRIES} entries.`);
        const limit = want(entry);
        if (limit === null) return false;
        if (entry.originalSize > limit) throw tooLarge(entry.name, entry.originalSize, limit);
        budget.read += entry.originalSize;
        if (budget.read > READ_MAX_BYTES) throw tooLarge("The entries to read", budget.read, READ_MAX_BYTES);
        return true;
      },
    });
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw archiveProblem(`the file is not a zip archive, or it is damaged (${error instanceof Error ? error.message : "unreadable"}). Send the .zip CTFd's Admin → Config → Backup → Export gives.`);
  }
}

function parseTable(name: string, data: Uint8Array): unknown[] {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(data));
  } catch {
    throw archiveProblem(`${name} is not valid UTF-8 JSON.`);
  }
  const results = value && typeof value === "object" && !Array.isArray(value) ? (value as { results?: unknown }).results : undefined;
  if (!Array.isArray(results)) throw archiveProblem(`${name} has no "results" list (CTFd's tables are {"count", "results", "meta"}).`);
  return results;
}

/** Reads the tables of a CTFd export; the uploads are read later, only those `db/files.json` names. */
export function readCtfdArchive(bytes: Uint8Array): CtfdArchive {
  const budget = { read: 0 };
  const wanted = new Set(ctfdTables.map((table) => `db/${table}.json`));
  const read = inflate(bytes, budget, (entry) => (wanted.has(entry.name) ? TABLE_MAX_BYTES : null));
  if (!read["db/challenges.json"]) throw archiveProblem("db/challenges.json is missing: this is not a CTFd export.");
  const tables = Object.fromEntries(ctfdTables.map((table) => [table, read[`db/${table}.json`] ? parseTable(`db/${table}.json`, read[`db/${table}.json`]) : null])) as CtfdArchive["tables"];
  return {
    tables,
    uploads: (locations, fileMaxBytes) => {
      const names = new Set(locations.map((location) => `uploads/${location}`));
      const found = inflate(bytes, budget, (entry) => (names.has(entry.name) ? fileMaxBytes : null));
      const result = new Map<string, Uint8Array>();
      for (const location of locations) {
        const data = found[`uploads/${location}`];
        if (!data) throw archiveProblem(`uploads/${location} is missing, though db/files.json names it.`);
        result.set(location, data);
      }
      return result;
    },
  };
}
