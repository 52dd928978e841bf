import { targetResponse } from "@/lib/ctf/templates/responses";
import { otherMethods } from "@/lib/platform/http/unrouted";
import { serveDeploymentTarget } from "@/lib/ctf/deployments/content";
import { deploymentPlayContracts as play } from "@/lib/ctf/deployments/play-contracts";
import { handle } from "@/lib/registry/handle";

// One page of a deployment's web target: plain text in a sandbox, or a redirect to another of its pages.
export const GET = handle(play.target, async ({ req, db, player, params, query }) =>
  targetResponse(await serveDeploymentTarget(db, player, { page: params.page, query, cookieHeader: req.headers.get("cookie") })),
);
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
