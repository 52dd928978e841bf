import { targetResponse } from "@/lib/api/artifact-responses";
import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { artifactContracts as artifacts } from "@/lib/ctf/artifact-contracts";
import { serveTarget } from "@/lib/ctf/artifacts";

// One page of a generated challenge's web target: plain text in a sandbox (it echoes players'
// input, so it must never be HTML on our origin), or a redirect to another of its pages.
export const GET = handle(artifacts.target, async ({ req, db, player, params, query }) =>
  targetResponse(await serveTarget(db, player, params.challenge_id, { page: params.page, query, cookieHeader: req.headers.get("cookie") })),
);
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
