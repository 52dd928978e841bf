import { targetResponse } from "@/lib/ctf/templates/responses";
import { otherMethods } from "@/lib/platform/http/unrouted";
import { artifactContracts as artifacts } from "@/lib/ctf/play/artifacts/contracts";
import { serveTarget } from "@/lib/ctf/play/artifacts/artifacts";
import { handle } from "@/lib/registry/handle";

// One page of a generated challenge's web target: plain text in a sandbox (it echoes players'
// input, so it must never be HTML on our origin), or a redirect to another of its pages.
export const GET = handle(artifacts.target, async ({ req, db, player, params, query }) =>
  targetResponse(await serveTarget(db, player, params.challenge_id, { page: params.page, query, cookieHeader: req.headers.get("cookie") })),
);
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
