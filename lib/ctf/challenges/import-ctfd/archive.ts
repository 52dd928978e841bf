import { setImmediate as nextTurn } from "node:timers/promises";
import { AppError, invalidFields } from "@/lib/kernel/errors";
import { formatBytes } from "@/lib/kernel/values";
import { inflating } from "./gate";
import { ARCHIVE_MAX_ENTRIES, READ_MAX_BYTES, TABLE_MAX_BYTES, TABLE_MAX_ROWS } from "./limits";
import { inflateEntry, readZipDirectory, ZipProblem, type ZipEntry } from "./zip";

/**
 * Reading a CTFd export (a zip: `db/<table>.json` and `uploads/<location>`) within bounds, so
 * that a zip bomb answers 413 or 422 and never stalls the server or fills the memory:
 * - the archive itself is at most ARCHIVE_MAX_BYTES (./limits.ts) (the route's body limit, 413 beyond);
 * - at most ARCHIVE_MAX_ENTRIES entries (422);
 * - only the entries the import needs are inflated: the tables it reads, then the uploads
 *   `db/files.json` names (two passes over the central directory);
 * - before any of a pass is inflated, the sizes its entries declare are checked (a table at
 *   most TABLE_MAX_BYTES, a file at most the configured file limit, all of them together at
 *   most READ_MAX_BYTES: 413 naming the entry);
 * - each entry is inflated off the main thread (./zip.ts: zlib on the thread pool), into at
 *   most its declared size, and must come out exactly that size: an entry whose bytes
 *   disagree with its declaration is a malformed archive (422 naming it), never cut silently;
 * - at most INFLATING_MAX imports inflate at once (./gate.ts; the others wait, then 503);
 * - the tables are parsed one per turn of the event loop (each at most TABLE_MAX_BYTES and
 *   TABLE_MAX_ROWS rows, 422 beyond), so other requests are answered in between.
 */

/** The tables of CTFd's export the import reads (the others: users, solves, config… are not challenges). */
export const ctfdTables = ["challenges", "dynamic_challenge", "flags", "hints", "tags", "files"] as const;
export type CtfdTable = (typeof ctfdTables)[number];

/**
 * A 422 about the archive, naming the entry (or the archive) in `file`. The field's message
 * starts with a capital unless it starts with the entry's name, which is kept as the zip spells it.
 */
export function archiveProblem(message: string): AppError {
  const sentence = /^[^\s/]*\//.test(message) ? message : message.charAt(0).toUpperCase() + message.slice(1);
  return invalidFields([{ field: "file", message: sentence }], `The archive is not a CTFd export that can be imported: ${message}`);
}

function tooLarge(name: string, declared: number, limit: number): AppError {
  return new AppError("payload_too_large", `${name} inflates to ${formatBytes(declared)} (${declared} bytes), over the limit of ${formatBytes(limit)} (${limit} bytes): nothing was imported.`);
}

export type CtfdArchive = {
  /** A table's rows (`{"results": [...]}`), or null when the export has no such table. */
  tables: Record<CtfdTable, unknown[] | null>;
  /** The bytes of `uploads/<location>` for each location asked for; a location the archive lacks → 422 naming it. */
  uploads: (locations: string[], fileMaxBytes: number) => Promise<Map<string, Uint8Array>>;
};

async function directory(bytes: Uint8Array): Promise<ZipEntry[]> {
  try {
    return await readZipDirectory(bytes, ARCHIVE_MAX_ENTRIES);
  } catch (error) {
    if (error instanceof ZipProblem) throw archiveProblem(`${error.message}${error.message.startsWith("the file is not a zip") ? " Send the .zip CTFd's Admin → Config → Backup → Export gives." : ""}`);
    throw error;
  }
}

/**
 * Inflates the entries `limitOf` selects (it gives each one's bound, or null to skip it),
 * counting their declared sizes against the shared budget, all checked before any is inflated.
 */
async function inflate(entries: ZipEntry[], budget: { read: number }, limitOf: (name: string) => number | null): Promise<Map<string, Uint8Array>> {
  const chosen = new Map<string, ZipEntry>();
  for (const entry of entries) {
    const limit = limitOf(entry.name);
    if (limit === null) continue;
    if (chosen.has(entry.name)) throw archiveProblem(`${entry.name} appears twice in the archive.`);
    if (entry.size > limit) throw tooLarge(entry.name, entry.size, limit);
    budget.read += entry.size;
    if (budget.read > READ_MAX_BYTES) {
      throw new AppError("payload_too_large", `The entries the import reads inflate to more than ${formatBytes(READ_MAX_BYTES)} (${READ_MAX_BYTES} bytes) in all (reached at ${entry.name}): nothing was imported.`);
    }
    chosen.set(entry.name, entry);
  }
  if (!chosen.size) return new Map();
  return inflating.run(async () => {
    const read = new Map<string, Uint8Array>();
    for (const [name, entry] of chosen) {
      try {
        read.set(name, await inflateEntry(entry));
      } catch (error) {
        throw error instanceof ZipProblem ? archiveProblem(error.message) : error;
      }
    }
    return read;
  });
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
  if (results.length > TABLE_MAX_ROWS) throw archiveProblem(`${name} holds ${results.length} rows, more than the ${TABLE_MAX_ROWS} one import reads.`);
  return results;
}

/** Reads the tables of a CTFd export; the uploads are read later, only those `db/files.json` names. */
export async function readCtfdArchive(bytes: Uint8Array): Promise<CtfdArchive> {
  const entries = await directory(bytes);
  const budget = { read: 0 };
  const wanted = new Set(ctfdTables.map((table) => `db/${table}.json`));
  const read = await inflate(entries, budget, (name) => (wanted.has(name) ? TABLE_MAX_BYTES : null));
  if (!read.has("db/challenges.json")) throw archiveProblem("db/challenges.json is missing: this is not a CTFd export.");
  const tables = {} as CtfdArchive["tables"];
  for (const table of ctfdTables) {
    const data = read.get(`db/${table}.json`);
    // One table per turn of the event loop: parsing a large one takes a moment.
    await nextTurn();
    tables[table] = data ? parseTable(`db/${table}.json`, data) : null;
  }
  return {
    tables,
    uploads: async (locations, fileMaxBytes) => {
      const names = new Set(locations.map((location) => `uploads/${location}`));
      const found = await inflate(entries, budget, (name) => (names.has(name) ? fileMaxBytes : null));
      const result = new Map<string, Uint8Array>();
      for (const location of locations) {
        const data = found.get(`uploads/${location}`);
        if (!data) throw archiveProblem(`uploads/${location} is missing, though db/files.json names it.`);
        result.set(location, data);
      }
      return result;
    },
  };
}
