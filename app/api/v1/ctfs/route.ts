import { pagingQuery } from "@/lib/api/paging";
import { readJson, readQuery } from "@/lib/api/parse";
import { json, withApiKey } from "@/lib/api/with-api-key";
import { createCtf, listCtfs } from "@/lib/ctf/competitions";
import { createCtfInput } from "@/lib/ctf/schemas";

// GET /api/v1/ctfs – the workspace's managed competitions
export const GET = withApiKey(async ({ req, db, workspaceId }) => json(await listCtfs(db, workspaceId, readQuery(req, pagingQuery))), { scope: "ctf:read" });

// POST /api/v1/ctfs – create a competition (starts as draft)
export const POST = withApiKey(async ({ req, db, workspaceId }) => json(await createCtf(db, workspaceId, await readJson(req, createCtfInput)), 201), {
  scope: "ctf:write",
});
