/**
 * Answers a stored file as a download: always an attachment, never rendered by the browser
 * as a page of this origin (an uploaded HTML or SVG file must not run script here).
 */

/** Types a download is sent as when uploaded as; anything else (HTML, SVG, XML, scripts…) is sent as application/octet-stream. */
const safeTypes = new Set([
  "application/octet-stream",
  "application/pdf",
  "application/json",
  "application/zip",
  "application/gzip",
  "application/x-gzip",
  "application/x-tar",
  "application/x-bzip2",
  "application/x-xz",
  "application/x-7z-compressed",
  "application/vnd.tcpdump.pcap",
  "text/plain",
  "text/csv",
  "image/png",
  "image/jpeg",
  "image/gif",
  "image/webp",
  "audio/mpeg",
  "audio/wav",
  "audio/ogg",
  "audio/flac",
  "video/mp4",
  "video/webm",
]);

export function safeContentType(stored: string): string {
  return safeTypes.has(stored) ? stored : "application/octet-stream";
}

/**
 * `attachment` with the name twice (RFC 6266): `filename` an ASCII stand-in for old
 * clients (other characters, quotes and backslashes become `_`), `filename*` the exact
 * name in UTF-8.
 */
export function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  const exact = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${exact}`;
}

export type Download = { name: string; contentType: string; size: number; sha256: string; body: ReadableStream<Uint8Array> };

export function downloadResponse(file: Download): Response {
  return new Response(file.body, {
    status: 200,
    headers: {
      "Content-Type": safeContentType(file.contentType),
      "Content-Length": String(file.size),
      "Content-Disposition": contentDisposition(file.name),
      "X-Content-Type-Options": "nosniff",
      // Opened directly anyway (a bookmarked link), it runs nothing and reaches nothing.
      "Content-Security-Policy": "default-src 'none'; sandbox",
      "Referrer-Policy": "no-referrer",
      "Cache-Control": "private, no-store",
      // RFC 9530: players can check what they downloaded.
      "Repr-Digest": `sha-256=:${Buffer.from(file.sha256, "hex").toString("base64")}:`,
    },
  });
}
