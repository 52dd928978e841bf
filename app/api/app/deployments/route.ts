import { z } from "zod";
import { pagingQuery } from "@/lib/api/paging";
import { readJson, readQuery } from "@/lib/api/parse";
import { withSession } from "@/lib/auth/with-session";
import { listCtfDeployments } from "@/lib/ctf/ctf-deployments";
import { createDeployment, listDeployments } from "@/lib/ctf/deployments";
import { createDeploymentInput } from "@/lib/ctf/schemas";

const listQuery = pagingQuery.extend({ ctf_id: z.string().min(1).max(64).optional() });

// GET /api/app/deployments[?ctf_id=] – standalone deployments; with ctf_id, those of that competition with the challenge's title (dashboard)
export const GET = withSession(async ({ req, db, workspace }) => {
  const { ctf_id, ...paging } = readQuery(req, listQuery);
  return Response.json(ctf_id ? await listCtfDeployments(db, workspace.id, ctf_id, paging) : await listDeployments(db, workspace.id, paging));
});

// POST /api/app/deployments – deploy one challenge for a window (asynchronous; stops by itself) (dashboard)
export const POST = withSession(async ({ req, db, workspace }) =>
  Response.json(await createDeployment(db, workspace.id, await readJson(req, createDeploymentInput)), { status: 202 }),
);
