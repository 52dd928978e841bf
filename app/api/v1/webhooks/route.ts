import { pagingQuery } from "@/lib/api/paging";
import { readJson, readQuery } from "@/lib/api/parse";
import { json, withApiKey } from "@/lib/api/with-api-key";
import { availableEvents } from "@/lib/events/catalog";
import { createWebhook, listWebhooks } from "@/lib/webhooks/endpoints";
import { createWebhookInput } from "@/lib/webhooks/schemas";

// GET /api/v1/webhooks – the workspace's endpoints (never their secrets) and available_events
export const GET = withApiKey(
  async ({ req, db, workspaceId }) => {
    const paging = readQuery(req, pagingQuery);
    return json({ ...(await listWebhooks(db, workspaceId, paging)), available_events: availableEvents });
  },
  { scope: "ctf:read" },
);

// POST /api/v1/webhooks – register an endpoint; a generated secret is returned once
export const POST = withApiKey(
  async ({ req, db, workspaceId }) => {
    const input = await readJson(req, createWebhookInput);
    return json(await createWebhook(db, workspaceId, input, "api"), 201);
  },
  { scope: "ctf:admin" },
);
