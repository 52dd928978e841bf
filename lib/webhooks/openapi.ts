import { z } from "zod";
import { documentRoute } from "@/lib/api/openapi";
import { pagingQuery } from "@/lib/api/paging";
import { createdWebhook, createWebhookInput, webhookList, webhookView } from "./schemas";

documentRoute({
  method: "get",
  path: "/webhooks",
  tag: "Webhooks",
  summary: "List webhook endpoints",
  description: "The workspace's endpoints (secrets are never returned) and `available_events`, the authoritative list of event names.",
  scope: "ctf:read",
  query: pagingQuery,
  success: { status: 200, description: "A page of endpoints.", schema: webhookList },
});

documentRoute({
  method: "post",
  path: "/webhooks",
  tag: "Webhooks",
  summary: "Register a webhook endpoint",
  description:
    "`url` must be http(s); `events` is a subset of `available_events` (empty or absent = every event); `secret` 16–128 characters, or absent to have one generated (`whsec_…`) and returned once. At most 20 endpoints per workspace (409 beyond).",
  scope: "ctf:admin",
  body: createWebhookInput,
  errors: [409],
  success: { status: 201, description: "The endpoint.", schema: createdWebhook },
});

documentRoute({
  method: "delete",
  path: "/webhooks/{id}",
  tag: "Webhooks",
  summary: "Delete a webhook endpoint",
  scope: "ctf:admin",
  params: z.object({ id: z.string().meta({ description: "Webhook id (wh_…)." }) }),
  success: { status: 200, description: "Deleted.", schema: z.object({ deleted: z.literal(true), webhook: webhookView }) },
});
