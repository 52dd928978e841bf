import { strToU8, zipSync, type ZipOptions, type Zippable } from "fflate";

/**
 * A CTFd admin export built in code, in the layout CTFd's `export_ctf` writes
 * (CTFd/utils/exports): one `db/<table>.json` per table, each `{"count", "results", "meta"}`
 * with rows as CTFd's models have them (CTFd/models, the dynamic_challenges plugin), and each
 * uploaded file under `uploads/<location>` (`location` is `<folder>/<name>`, as in
 * `db/files.json`). No archive is fetched: the tests change these tables to make the cases.
 */

export type CtfdTables = Record<string, Record<string, unknown>[]>;

/** The bytes of the files of the default export, by location. */
export const fixtureFiles: Record<string, Uint8Array> = {
  "3f1a9c0e2b7d4e5f8a6b1c2d3e4f5a6b/capture.pcap": new Uint8Array([0xd4, 0xc3, 0xb2, 0xa1, 0x02, 0x00, 0x04, 0x00, 0x00, 0xff, 0x10, 0x80]),
  "9b8a7c6d5e4f3a2b1c0d9e8f7a6b5c4d/notes.txt": strToU8("the key is in the capture\n"),
};

/** The default export: four challenges showing each thing the import maps. */
export function fixtureTables(): CtfdTables {
  return {
    alembic_version: [{ version_num: "67ebab6de598" }],
    challenges: [
      { id: 1, name: "Warm-up", description: "Find the flag in `notes.txt`.", connection_info: null, next_id: null, max_attempts: 0, value: 100, category: "Forensics", type: "standard", state: "visible", requirements: null },
      { id: 2, name: "Falling value", description: "A dynamic one.", connection_info: "nc chal.example 1337", next_id: null, max_attempts: 5, value: 500, category: "pwn", type: "dynamic", state: "visible", requirements: { prerequisites: [1] } },
      { id: 3, name: "Pattern", description: "Any hex flag.", connection_info: null, next_id: null, max_attempts: 0, value: 200, category: "Trivia", type: "standard", state: "hidden", requirements: '{"prerequisites": [1, 2]}' },
      { id: 4, name: "Steady decline", description: "Linear decay.", connection_info: null, next_id: null, max_attempts: 0, value: 300, category: "web", type: "dynamic", state: "visible", requirements: null },
      { id: 5, name: "Survey", description: "Tell us.", connection_info: null, next_id: null, max_attempts: 0, value: 10, category: "misc", type: "standard", state: "visible", requirements: null },
    ],
    dynamic_challenge: [
      { id: 2, initial: 500, minimum: 100, decay: 10, function: "logarithmic" },
      { id: 4, initial: 300, minimum: 50, decay: 5, function: "linear" },
    ],
    flags: [
      { id: 1, challenge_id: 1, type: "static", content: "CTF{warm_up}", data: "" },
      { id: 2, challenge_id: 1, type: "static", content: "CTF{also_accepted}", data: "" },
      { id: 3, challenge_id: 2, type: "static", content: "CTF{Falling}", data: "case_insensitive" },
      { id: 4, challenge_id: 3, type: "regex", content: "CTF\\{[0-9a-f]{8}\\}", data: "" },
      { id: 5, challenge_id: 4, type: "static", content: "CTF{linear}", data: null },
    ],
    hints: [
      { id: 1, type: "standard", challenge_id: 1, content: "Open **notes.txt**.", cost: 0, requirements: null },
      { id: 2, type: "standard", challenge_id: 1, content: "Then the capture.", cost: 25, requirements: { prerequisites: [1] } },
      { id: 3, type: "standard", challenge_id: 2, content: "Overflow it.", cost: 50, requirements: null },
    ],
    tags: [
      { id: 1, challenge_id: 1, value: "beginner" },
      { id: 2, challenge_id: 2, value: "heap" },
      { id: 3, challenge_id: 2, value: "glibc" },
    ],
    files: [
      { id: 1, type: "challenge", location: "3f1a9c0e2b7d4e5f8a6b1c2d3e4f5a6b/capture.pcap", sha1sum: null, challenge_id: 1, page_id: null },
      { id: 2, type: "challenge", location: "9b8a7c6d5e4f3a2b1c0d9e8f7a6b5c4d/notes.txt", sha1sum: null, challenge_id: 1, page_id: null },
      { id: 3, type: "page", location: "0a0b0c0d0e0f0a0b0c0d0e0f0a0b0c0d/logo.png", sha1sum: null, challenge_id: null, page_id: 1 },
    ],
    users: [{ id: 1, name: "admin", email: "admin@example.com", type: "admin" }],
    solves: [],
  };
}

/** The zip of an export: its tables and uploads (by location); `extra` adds raw entries (a broken table…); `options.level` 0 stores them uncompressed. */
export function ctfdExportZip(tables: CtfdTables = fixtureTables(), uploads: Record<string, Uint8Array> = fixtureFiles, extra: Zippable = {}, options: ZipOptions = {}): Uint8Array {
  const entries: Zippable = {};
  for (const [name, results] of Object.entries(tables)) entries[`db/${name}.json`] = strToU8(JSON.stringify({ count: results.length, results, meta: {} }));
  for (const [location, bytes] of Object.entries(uploads)) entries[`uploads/${location}`] = bytes;
  return zipSync({ ...entries, ...extra }, options);
}

/** Rewrites the size an entry declares in the zip's central directory (a zip bomb lies about it, or tells the truth). */
export function declareSize(zip: Uint8Array, name: string, size: number): Uint8Array {
  const copy = zip.slice();
  const view = new DataView(copy.buffer);
  const encoded = strToU8(name);
  for (let at = 0; at + 46 <= copy.length; at++) {
    if (view.getUint32(at, true) !== 0x02014b50) continue;
    const nameLength = view.getUint16(at + 28, true);
    const entryName = copy.subarray(at + 46, at + 46 + nameLength);
    if (nameLength === encoded.length && entryName.every((byte, index) => byte === encoded[index])) {
      view.setUint32(at + 24, size, true);
      return copy;
    }
  }
  throw new Error(`${name} is not in the zip`);
}
