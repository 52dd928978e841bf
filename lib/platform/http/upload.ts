import { config } from "@/lib/kernel/config/config";
import { AppError, invalidFields } from "@/lib/kernel/errors";
import { MAX_BODY_BYTES, readBodyBytes } from "./parse";
import { formatBytes } from "@/lib/kernel/values";

/** A file as a handler receives it: its name and type as the client sent them, and its bytes. */
export type UploadedFile = { name: string; contentType: string; bytes: Uint8Array };

/** Room for the multipart envelope (boundaries, part headers, a few small fields) around the file itself. */
export const MULTIPART_ENVELOPE_BYTES = 64 * 1024;

/** The largest body an upload route reads: the configured file limit plus the envelope. */
export function uploadBodyLimit(): number {
  return config().files.maxBytes + MULTIPART_ENVELOPE_BYTES;
}

function fileTooLarge(): AppError {
  const limit = config().files.maxBytes;
  return new AppError("payload_too_large", `The file is larger than the limit of ${formatBytes(limit)} (${limit} bytes).`);
}

/** Refuses an upload whose announced Content-Length is over the limit, before a byte of it is read. */
export function rejectOversizedUpload(req: Request): void {
  const declared = req.headers.get("content-length");
  if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared) > uploadBodyLimit()) throw fileTooLarge();
}

/**
 * Reads one file sent as `multipart/form-data` in the part named `field` (what `curl -F
 * file=@capture.pcap` and a browser's FormData send). Over the configured FILE_MAX_BYTES →
 * 413, refused on Content-Length before a byte is read, else as soon as the stream passes
 * it; another content type, a body that is not multipart, no such part, a part that is not
 * a file or several files → 422 naming `field`. Other parts are ignored.
 */
export async function readUpload(req: Request, field: string): Promise<UploadedFile> {
  const contentType = req.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(contentType)) {
    throw invalidFields([{ field, message: `Send the file as multipart/form-data, in a part named ${field}.` }], "The body must be multipart/form-data.");
  }
  const bytes = await readBodyBytes(req, uploadBodyLimit(), fileTooLarge);
  const form = await parseForm(bytes, contentType);
  const parts = form.getAll(field);
  if (parts.length === 0) throw invalidFields([{ field, message: `Send the file in a part named ${field}.` }]);
  if (parts.length > 1) throw invalidFields([{ field, message: "Send one file per request." }]);
  const [file] = parts;
  if (typeof file === "string") throw invalidFields([{ field, message: `The ${field} part must be a file (with a filename).` }]);
  if (file.size > config().files.maxBytes) throw fileTooLarge();
  return { name: file.name, contentType: file.type, bytes: new Uint8Array(await file.arrayBuffer()) };
}

/** A multipart/form-data body's parts; not valid multipart → 422 on `(body)`. */
async function parseForm(bytes: Uint8Array, contentType: string): Promise<FormData> {
  try {
    return await new Response(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) as BodyInit, { headers: { "content-type": contentType } }).formData();
  } catch {
    throw invalidFields([{ field: "(body)", message: "The body is not valid multipart/form-data." }], "The body must be multipart/form-data.");
  }
}

/**
 * The bytes of one file sent as the whole body (any content type) or as the part named `field`
 * of a `multipart/form-data` body (a browser's FormData, `curl -F file=@…`). Over `limit` → 413
 * (the multipart envelope gets its room on top); a multipart body without that one file part →
 * 422 naming `field`.
 */
async function readFileBytes(req: Request, field: string, limit: number): Promise<Uint8Array> {
  const contentType = req.headers.get("content-type") ?? "";
  const multipart = /^multipart\/form-data\s*;/i.test(contentType);
  const bytes: Uint8Array = await readBodyBytes(req, multipart ? limit + MULTIPART_ENVELOPE_BYTES : limit);
  if (!multipart) return bytes;
  const form = await parseForm(bytes, contentType);
  const parts = form.getAll(field);
  if (parts.length !== 1 || typeof parts[0] === "string") {
    throw invalidFields([{ field, message: `Send one file in a part named ${field} (or the file itself as the body).` }]);
  }
  if (parts[0].size > limit) throw new AppError("payload_too_large", `The file is larger than the limit of ${formatBytes(limit)} (${limit} bytes).`);
  return new Uint8Array(await parts[0].arrayBuffer());
}

/**
 * Reads one UTF-8 text file (a question bank, …): the whole body, or the part named `field` of
 * a `multipart/form-data` body (readFileBytes). Over `limit` → 413; an empty file, a multipart
 * body without that file part, or bytes that are not UTF-8 → 422 naming `field`. A byte-order
 * mark is dropped.
 */
export async function readTextFile(req: Request, field: string, limit: number = MAX_BODY_BYTES): Promise<string> {
  const bytes = await readFileBytes(req, field, limit);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw invalidFields([{ field, message: "The file is not UTF-8 text: save it as UTF-8 and send it again." }]);
  }
  if (!text.trim()) throw invalidFields([{ field, message: "The file is empty." }]);
  return text;
}

/**
 * A multipart type that is not `multipart/form-data` with a boundary (none, or
 * `multipart/mixed`…) → 422 `(body)`, as a malformed multipart body is: only other types are
 * read as the file itself.
 */
function refuseUnreadableMultipart(req: Request): void {
  const contentType = req.headers.get("content-type") ?? "";
  const essence = contentType.split(";")[0].trim().toLowerCase();
  if (!essence.startsWith("multipart/")) return;
  if (essence === "multipart/form-data" && /;\s*boundary\s*=\s*\S/i.test(contentType)) return;
  throw invalidFields(
    [{ field: "(body)", message: "Send multipart/form-data with its boundary (as curl -F and a browser's FormData do), or the file itself as the body with another type." }],
    "The body must be multipart/form-data.",
  );
}

/** Reads one binary file (an archive) as readFileBytes does; an empty one → 422 naming `field`. */
export async function readBinaryFile(req: Request, field: string, limit: number = MAX_BODY_BYTES): Promise<Uint8Array> {
  refuseUnreadableMultipart(req);
  const bytes = await readFileBytes(req, field, limit);
  if (bytes.byteLength === 0) throw invalidFields([{ field, message: "The file is empty." }]);
  return bytes;
}
