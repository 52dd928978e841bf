import type { TargetReply } from "@/lib/ctf/templates/kit/types";

/**
 * The answers of a generated challenge's player routes, a competition's and a standalone
 * deployment's alike: its file, always a download, and its web target's pages, plain text in
 * a sandbox (a target echoes players' input, so it must never be HTML on our origin).
 */

export function artifactFileResponse(file: { name: string; data: Buffer }): Response {
  return new Response(new Uint8Array(file.data), {
    headers: {
      "Content-Type": "application/octet-stream",
      "Content-Disposition": `attachment; filename="${file.name}"`,
      "Content-Length": String(file.data.length),
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; sandbox",
      "Referrer-Policy": "no-referrer",
    },
  });
}

/** One page of a target, or its redirect to another of its pages, with the cookies it sets. */
export function targetResponse(reply: TargetReply): Response {
  const headers = new Headers({
    "Content-Type": "text/plain; charset=utf-8",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'; sandbox",
    "Referrer-Policy": "no-referrer",
  });
  for (const cookie of reply.setCookies ?? []) headers.append("Set-Cookie", cookie);
  if (reply.status === 302) headers.set("Location", reply.location);
  return new Response(reply.text ?? "", { status: reply.status ?? 200, headers });
}
