import { z } from "zod";
import { contract, prefixedParam } from "@/lib/api/contract";
import { pagingQuery } from "@/lib/api/paging";
import { createdWebhook, createWebhookInput, deliveryList, webhookList, webhookView } from "./schemas";

const webhook = z.object({ id: prefixedParam("wh", "Webhook") });
const delivery = z.object({ id: prefixedParam("dlv", "Delivery") });

/** Webhook endpoints (/api/v1) and the dashboard's own test event and redelivery. */
export const webhookContracts = {
  list: contract({
    id: "webhooks.list",
    method: "GET",
    path: "/api/v1/webhooks",
    caller: "workspace",
    scope: "ctf:read",
    query: pagingQuery,
    status: 200,
    response: webhookList,
    docs: {
      tag: "Webhooks",
      summary: "List webhook endpoints",
      description: "The workspace's endpoints (secrets are never returned) and `available_events`, the authoritative list of event names.",
    },
  }),
  create: contract({
    id: "webhooks.create",
    method: "POST",
    path: "/api/v1/webhooks",
    caller: "workspace",
    scope: "ctf:admin",
    body: createWebhookInput,
    status: 201,
    response: createdWebhook,
    docs: {
      tag: "Webhooks",
      summary: "Register a webhook endpoint",
      description:
        "`url` must be http(s); `events` is a subset of `available_events` (empty or absent = every event); `secret` 16–128 characters, or absent to have one generated (`whsec_…`) and returned once. " +
        "From the dashboard (a signed-in session) the secret is always generated. At most 20 endpoints per workspace (409 beyond).",
      errors: [409],
    },
  }),
  remove: contract({
    id: "webhooks.delete",
    method: "DELETE",
    path: "/api/v1/webhooks/{id}",
    caller: "workspace",
    scope: "ctf:admin",
    params: webhook,
    status: 200,
    response: z.object({ deleted: z.literal(true), webhook: webhookView }),
    docs: { tag: "Webhooks", summary: "Delete a webhook endpoint", description: "Nothing more is sent to it; its delivery log goes with it." },
  }),
  deliveries: contract({
    id: "webhooks.deliveries",
    method: "GET",
    path: "/api/v1/webhooks/{id}/deliveries",
    caller: "workspace",
    scope: "ctf:read",
    params: webhook,
    query: pagingQuery,
    status: 200,
    response: deliveryList,
    docs: {
      tag: "Webhooks",
      summary: "An endpoint's delivery log",
      description: "Not in the specification (additive): each delivery, newest first, with its status and every attempt (status code, error, excerpt of the answer, duration).",
    },
  }),
  sendTest: contract({
    id: "webhooks.test",
    method: "POST",
    path: "/api/app/webhooks/{id}/test",
    caller: "session",
    params: webhook,
    status: 202,
    response: z.object({ delivery_id: z.string(), event_id: z.string(), event: z.string() }),
    docs: { tag: "Dashboard: webhooks", summary: "Send a sample event", description: "A sample of one of the endpoint's events, in its real wire format and signature." },
  }),
  redeliver: contract({
    id: "deliveries.redeliver",
    method: "POST",
    path: "/api/app/deliveries/{id}/redeliver",
    caller: "session",
    params: delivery,
    status: 202,
    response: z.object({ id: z.string() }),
    docs: { tag: "Dashboard: webhooks", summary: "Deliver an event again", description: "A fresh delivery of the same event (same id and body), with attempts of its own." },
  }),
};
