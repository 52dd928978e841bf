import { pagingQuery } from "@/lib/api/paging";
import { readJson } from "@/lib/api/parse";
import { withSession } from "@/lib/auth/with-session";
import { availableEvents, eventCatalog } from "@/lib/events/catalog";
import { createWebhook, listWebhooks } from "@/lib/webhooks/endpoints";
import { createWebhookInput } from "@/lib/webhooks/schemas";

// GET /api/app/webhooks – endpoints and the events one can subscribe to (dashboard)
export const GET = withSession(async ({ db, workspace }) =>
  Response.json({
    ...(await listWebhooks(db, workspace.id, pagingQuery.parse({ per_page: 100 }))),
    available_events: availableEvents.map((name) => ({ name, description: eventCatalog[name].description })),
  }),
);

// POST /api/app/webhooks – add an address; the dashboard always generates the whsec_ secret
export const POST = withSession(async ({ req, db, workspace }) => {
  const input = await readJson(req, createWebhookInput.omit({ secret: true }));
  return Response.json(await createWebhook(db, workspace.id, input, "dashboard"), { status: 201 });
});
