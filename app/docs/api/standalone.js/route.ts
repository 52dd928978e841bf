import { readFile } from "node:fs/promises";
import path from "node:path";

// GET /docs/api/standalone.js – Scalar's browser bundle, from the installed @scalar/api-reference
// package (its exports do not name the file, so it is read by path); cached for a day.
let bundle: Promise<Buffer> | undefined;

export async function GET(): Promise<Response> {
  bundle ??= readFile(path.join(process.cwd(), "node_modules", "@scalar", "api-reference", "dist", "browser", "standalone.js"));
  return new Response(new Uint8Array(await bundle), {
    headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "public, max-age=86400" },
  });
}
