import { z } from "zod";
import { contract, prefixedParam } from "@/lib/kernel/contract";
import { pagingQuery } from "@/lib/kernel/paging";
import {
  createdTestResultWebhook,
  createdWebhook,
  createTestResultWebhookInput,
  createWebhookInput,
  deliveryList,
  deliveryQuery,
  testResultWebhookList,
  webhookList,
  webhookView,
} from "./schemas";

const webhook = z.object({ id: prefixedParam("wh", "Webhook") });
const delivery = z.object({ id: prefixedParam("dlv", "Delivery") });

const deleted = z.object({ deleted: z.literal(true), webhook: webhookView });

/**
 * Competition endpoints (/api/v1/webhooks, the competition spec's surface), test-result
 * endpoints (dashboard only, /api/app/test-result-webhooks, as the certification spec
 * registers them in the trainer area), and the dashboard's test event and redelivery for both.
 */
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
      description:
        "The workspace's competition endpoints (secrets are never returned) and `available_events`, the authoritative list of the nine competition event names. " +
        "Test-result endpoints (`test.completed`, registered in the dashboard) are not listed here.",
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
        "A competition endpoint. `url` must be http(s); `events` is a subset of `available_events` (empty or absent = all of them; `test.completed` or an unknown name → 422 naming the field); " +
        "`secret` 16–128 characters, or absent to have one generated (`whsec_…`) and returned once. " +
        "From the dashboard (a signed-in session) the secret is always generated. At most 20 competition endpoints per workspace (409 beyond).",
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
    response: deleted,
    docs: { tag: "Webhooks", summary: "Delete a webhook endpoint", description: "A competition endpoint: nothing more is sent to it; its delivery log goes with it." },
  }),
  deliveries: contract({
    id: "webhooks.deliveries",
    method: "GET",
    path: "/api/v1/webhooks/{id}/deliveries",
    caller: "workspace",
    scope: "ctf:read",
    params: webhook,
    query: deliveryQuery,
    status: 200,
    response: deliveryList,
    docs: {
      tag: "Webhooks",
      summary: "An endpoint's delivery log",
      description:
        "Not in the specification (additive): each delivery to a competition endpoint, newest first, with its status and every attempt (status code, error, excerpt of the answer, duration). " +
        "`status` (`pending`, `delivered`, `dropped`, `not_sent`), `event` (an event name) and `since` (ISO 8601) narrow it.",
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
    docs: {
      tag: "Dashboard: webhooks",
      summary: "Send a sample event",
      description: "To an endpoint of either kind: `test.completed` to a test-result endpoint, one of its events to a competition endpoint; in the real wire format and signature.",
    },
  }),
  redeliver: contract({
    id: "deliveries.redeliver",
    method: "POST",
    path: "/api/app/deliveries/{id}/redeliver",
    caller: "session",
    params: delivery,
    status: 202,
    response: z.object({ id: z.string() }),
    docs: {
      tag: "Dashboard: webhooks",
      summary: "Deliver an event again",
      description: "A fresh delivery of the same event (same id and body), with attempts of its own. A disabled endpoint answers 409 (enable it first).",
      errors: [409],
    },
  }),
  listTestResults: contract({
    id: "testResultWebhooks.list",
    method: "GET",
    path: "/api/app/test-result-webhooks",
    caller: "session",
    query: pagingQuery,
    status: 200,
    response: testResultWebhookList,
    docs: {
      tag: "Dashboard: webhooks",
      summary: "List test-result endpoints",
      description: "The workspace's test-result endpoints, newest first (secrets are never returned). Each receives `test.completed` only, in the certification wire format.",
    },
  }),
  createTestResult: contract({
    id: "testResultWebhooks.create",
    method: "POST",
    path: "/api/app/test-result-webhooks",
    caller: "session",
    body: createTestResultWebhookInput,
    status: 201,
    response: createdTestResultWebhook,
    docs: {
      tag: "Dashboard: webhooks",
      summary: "Add a test-result endpoint",
      description: "An address that receives `test.completed`. The secret (`whsec_…`) is generated and returned this once. At most 20 test-result endpoints per workspace (409 beyond).",
      errors: [409],
    },
  }),
  removeTestResult: contract({
    id: "testResultWebhooks.delete",
    method: "DELETE",
    path: "/api/app/test-result-webhooks/{id}",
    caller: "session",
    params: webhook,
    status: 200,
    response: deleted,
    docs: { tag: "Dashboard: webhooks", summary: "Delete a test-result endpoint", description: "Nothing more is sent to it; its delivery log goes with it." },
  }),
  testResultDeliveries: contract({
    id: "testResultWebhooks.deliveries",
    method: "GET",
    path: "/api/app/test-result-webhooks/{id}/deliveries",
    caller: "session",
    params: webhook,
    query: deliveryQuery,
    status: 200,
    response: deliveryList,
    docs: { tag: "Dashboard: webhooks", summary: "A test-result endpoint's delivery log", description: "Each delivery, newest first, with its status and every attempt." },
  }),
};
