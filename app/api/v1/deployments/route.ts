import { pagingQuery } from "@/lib/api/paging";
import { readJson, readQuery } from "@/lib/api/parse";
import { json, withApiKey } from "@/lib/api/with-api-key";
import { createDeployment, listDeployments } from "@/lib/ctf/deployments";
import { createDeploymentInput } from "@/lib/ctf/schemas";

// GET /api/v1/deployments – standalone single-challenge deployments
export const GET = withApiKey(async ({ req, db, workspaceId }) => json(await listDeployments(db, workspaceId, readQuery(req, pagingQuery))), { scope: "ctf:read" });

// POST /api/v1/deployments – deploy one challenge for a window (asynchronous; stops by itself)
export const POST = withApiKey(async ({ req, db, workspaceId }) => json(await createDeployment(db, workspaceId, await readJson(req, createDeploymentInput)), 202), {
  scope: "ctf:deploy",
});
