import { handle } from "@/lib/api/handle";
import { artifactContracts as artifacts } from "@/lib/ctf/artifact-contracts";
import { serveTarget } from "@/lib/ctf/artifacts";

// One page of a generated challenge's web target: plain text in a sandbox (it echoes players'
// input, so it must never be HTML on our origin), or a redirect to another of its pages.
export const GET = handle(artifacts.target, async ({ req, db, player, params, query }) => {
  const reply = await serveTarget(db, player, params.challenge_id, { page: params.page, query, cookieHeader: req.headers.get("cookie") });
  const headers = new Headers({
    "Content-Type": "text/plain; charset=utf-8",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'; sandbox",
    "Referrer-Policy": "no-referrer",
  });
  for (const cookie of reply.setCookies ?? []) headers.append("Set-Cookie", cookie);
  if (reply.status === 302) headers.set("Location", reply.location);
  return new Response(reply.text ?? "", { status: reply.status ?? 200, headers });
});
