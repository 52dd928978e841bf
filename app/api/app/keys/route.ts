import { readJson } from "@/lib/api/parse";
import { withSession } from "@/lib/auth/with-session";
import { createApiKey, listApiKeys } from "@/lib/keys";
import { createApiKeyInput } from "@/lib/keys/schemas";

// GET /api/app/keys – the workspace's keys (dashboard)
export const GET = withSession(async ({ db, workspace }) => Response.json({ data: await listApiKeys(db, workspace.id) }));

// POST /api/app/keys – create a key; the secret is in this response only
export const POST = withSession(async ({ req, db, workspace }) => {
  const input = await readJson(req, createApiKeyInput);
  return Response.json(await createApiKey(db, workspace.id, input), { status: 201 });
});
