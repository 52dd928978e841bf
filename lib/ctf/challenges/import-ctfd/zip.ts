import { crc32 } from "node:zlib";
import yauzl, { type Entry, type ZipFile } from "yauzl";

/**
 * Reading a zip archive with yauzl (a well-kept reader that never trusts the archive): its
 * central directory, then the chosen entries, each inflated by Node's zlib stream on libuv's
 * thread pool and handed back in chunks, so a large or highly compressed entry never holds the
 * event loop. An entry is read only up to the size its directory declares (the stream is
 * stopped at the first byte beyond), must come out exactly that size, and its CRC-32 is
 * checked. Names are decoded without yauzl's path checks: an entry is only ever looked up by
 * name, never written to a path, so a strange name the import does not read harms nothing.
 * Only stored (0) and deflate (8) entries are read, as CTFd (Python's zipfile) writes them;
 * zip64 is understood, encrypted entries are refused.
 */

/** What is wrong with the archive, as the end of a sentence naming the entry ("db/flags.json is …"). */
export class ZipProblem extends Error {}

export type ZipEntry = {
  name: string;
  /** The inflated size the directory declares. */
  size: number;
  entry: Entry;
  zip: ZipFile;
};

const damaged = (what: string) => new ZipProblem(`the file is not a zip archive, or it is damaged (${what}).`);
const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The archive's entries, from its central directory; more than `maxEntries` → ZipProblem. */
export async function readZipDirectory(bytes: Uint8Array, maxEntries: number): Promise<ZipEntry[]> {
  let zip: ZipFile;
  try {
    zip = await yauzl.fromBufferPromise(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), { lazyEntries: true, validateEntrySizes: false, decodeStrings: false, autoClose: false });
  } catch (error) {
    throw damaged(reason(error));
  }
  if (zip.entryCount > maxEntries) throw new ZipProblem(`the archive holds more than ${maxEntries} entries.`);
  return new Promise((resolve, reject) => {
    const entries: ZipEntry[] = [];
    zip.on("entry", (entry: Entry) => {
      const name = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, false);
      entries.push({ name, size: entry.uncompressedSize, entry, zip });
      zip.readEntry();
    });
    zip.on("end", () => resolve(entries));
    zip.on("error", (error) => reject(damaged(reason(error))));
    zip.readEntry();
  });
}

/**
 * The bytes of an entry, inflated off the main thread; exactly the declared size with the
 * declared CRC-32, else ZipProblem naming it (a lying size is never cut silently).
 */
export async function inflateEntry({ name, size, entry, zip }: ZipEntry): Promise<Uint8Array> {
  if (entry.isEncrypted()) throw new ZipProblem(`${name} is encrypted: export the archive again without a password.`);
  if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
    throw new ZipProblem(`${name} is compressed with method ${entry.compressionMethod}; only stored (0) and deflate (8) entries can be read.`);
  }
  const chunks: Buffer[] = [];
  let read = 0;
  try {
    const stream = await zip.openReadStreamPromise(entry);
    for await (const chunk of stream) {
      read += (chunk as Buffer).byteLength;
      // Stop inflating at the first byte beyond the declaration: a lying size costs no more than it declared.
      if (read > size) {
        stream.destroy();
        throw new ZipProblem(`${name} inflates to more than the ${size} bytes it declares: the archive is malformed.`);
      }
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    if (error instanceof ZipProblem) throw error;
    throw damaged(`${name}: ${reason(error)}`);
  }
  const out = Buffer.concat(chunks);
  if (out.byteLength !== size) throw new ZipProblem(`${name} holds ${out.byteLength} bytes but declares ${size}: the archive is malformed.`);
  if (crc32(out) !== entry.crc32) throw damaged(`${name}'s checksum does not match its bytes`);
  return out;
}
