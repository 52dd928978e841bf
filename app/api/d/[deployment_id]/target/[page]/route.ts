import { targetResponse } from "@/lib/api/artifact-responses";
import { handle } from "@/lib/api/handle";
import { otherMethods } from "@/lib/api/unrouted";
import { serveDeploymentTarget } from "@/lib/ctf/deployment-content";
import { deploymentPlayContracts as play } from "@/lib/ctf/deployment-play-contracts";

// One page of a deployment's web target: plain text in a sandbox, or a redirect to another of its pages.
export const GET = handle(play.target, async ({ req, db, player, params, query }) =>
  targetResponse(await serveDeploymentTarget(db, player, { page: params.page, query, cookieHeader: req.headers.get("cookie") })),
);
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
