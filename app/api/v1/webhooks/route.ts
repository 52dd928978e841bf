import { otherMethods } from "@/lib/platform/http/unrouted";
import { competitionEvents, eventCatalog } from "@/lib/platform/pipeline/channels/webhook/events";
import { webhookContracts as webhooks } from "@/lib/platform/webhooks/contracts";
import { createWebhook, listWebhooks } from "@/lib/platform/webhooks/endpoints";
import { handle } from "@/lib/registry/handle";

const eventDescriptions = Object.fromEntries(competitionEvents.map((name) => [name, eventCatalog[name].description]));

export const GET = handle(webhooks.list, async ({ db, workspaceId, query }) => ({
  ...(await listWebhooks(db, workspaceId, "competition", query)),
  available_events: competitionEvents,
  event_descriptions: eventDescriptions,
}));

// The dashboard never chooses a secret: from a session one is always generated and shown once.
export const POST = handle(webhooks.create, ({ db, workspaceId, caller, body }) =>
  caller.kind === "session" ? createWebhook(db, workspaceId, { ...body, secret: undefined }, "dashboard") : createWebhook(db, workspaceId, body, "api"),
);
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
