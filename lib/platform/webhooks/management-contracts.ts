import { z } from "zod";
import { contract, prefixedParam } from "@/lib/kernel/contract";
import { pagingQuery } from "@/lib/kernel/paging";
import type { ApiScope } from "@/lib/kernel/scopes";
import {
  createdTestResultWebhook,
  createTestResultWebhookInput,
  deliveryList,
  deliveryQuery,
  RECOVER_RETENTION_DAYS,
  recovered,
  recoverInput,
  rotatedSecret,
  rotateSecretInput,
  testResultWebhookList,
  updateTestResultWebhookInput,
  updateWebhookInput,
  webhookView,
} from "./schemas";

const webhook = z.object({ id: prefixedParam("wh", "Webhook") });
const webhookDelivery = z.object({ id: prefixedParam("wh", "Webhook"), delivery_id: prefixedParam("dlv", "Delivery") });
const deleted = z.object({ deleted: z.literal(true), webhook: webhookView });

const DISABLED_409 = "A disabled endpoint answers 409 (enable it first with PATCH `enabled: true`).";

/**
 * Managing an endpoint after it is registered, the same four operations on both surfaces
 * (/api/v1/webhooks for competition endpoints, /api/v1/test-result-webhooks for test-result
 * ones): change (PATCH), rotate its secret, recover what it missed, deliver one event again.
 */
function managementContracts<const N extends string, const B extends string, const U extends z.ZodType>(
  name: N,
  base: B,
  scope: ApiScope,
  update: U,
  what: { tag: string; fields: string },
) {
  return {
    update: contract({
      id: `${name}.update`,
      method: "PATCH",
      path: `${base}/{id}`,
      caller: "workspace",
      scope,
      params: webhook,
      body: update,
      status: 200,
      response: webhookView,
      docs: {
        tag: what.tag,
        summary: "Change a webhook endpoint",
        description:
          `Not in the specification (additive). ${what.fields}; absent fields stay as they are (same validation as creation, 422 naming the field). ` +
          "`enabled: false` pauses it: nothing is sent to it, and each event meanwhile — and each retry still pending — is recorded as a `not_sent` delivery (see `recover`). " +
          "`enabled: true` resumes it and clears `disabled_at` and `disabled_reason`.",
      },
    }),
    rotateSecret: contract({
      id: `${name}.rotateSecret`,
      method: "POST",
      path: `${base}/{id}/rotate-secret`,
      caller: "workspace",
      scope,
      params: webhook,
      body: rotateSecretInput,
      status: 200,
      response: rotatedSecret,
      docs: {
        tag: what.tag,
        summary: "Rotate an endpoint's signing secret",
        description:
          "Not in the specification (additive). A new signing secret — the body's `secret` (16–128 characters; an API key only) or, absent, a generated `whsec_…` — returned this once. " +
          "For 24 hours (`previous_secret_expires_at`) the previous secret signs every delivery as well (docs/webhooks.md says which header carries which); rotating again within them replaces the previous secret with the one current until then.",
      },
    }),
    recover: contract({
      id: `${name}.recover`,
      method: "POST",
      path: `${base}/{id}/recover`,
      caller: "workspace",
      scope,
      params: webhook,
      body: recoverInput,
      status: 202,
      response: recovered,
      docs: {
        tag: what.tag,
        summary: "Recover missed deliveries",
        description:
          `Not in the specification (additive). Queues again, once each, every delivery of the endpoint created since \`since\` (at most ${RECOVER_RETENTION_DAYS} days ago) that was \`dropped\` or \`not_sent\` and has not been delivered again: ` +
          "a new delivery of the same event (same event id, `redelivery_of` the old one). Calling it again (or twice at once) queues nothing more. " +
          DISABLED_409,
        errors: [409],
      },
    }),
    redeliver: contract({
      id: `${name}.redeliver`,
      method: "POST",
      path: `${base}/{id}/deliveries/{delivery_id}/redeliver`,
      caller: "workspace",
      scope,
      params: webhookDelivery,
      status: 202,
      response: z.object({ id: z.string() }),
      docs: {
        tag: what.tag,
        summary: "Deliver one event again",
        description: `Not in the specification (additive). A fresh delivery of the same event (same id and body) with attempts of its own; its \`id\` is answered. ${DISABLED_409}`,
        errors: [409],
      },
    }),
  };
}

/** PATCH, rotate-secret, recover and redeliver of competition endpoints (ctf:admin). */
export const competitionEndpointContracts = managementContracts("webhooks", "/api/v1/webhooks", "ctf:admin", updateWebhookInput, {
  tag: "Webhooks",
  fields: "`url`, `events` (empty = all of `available_events`) and `enabled`",
});

const testResultTag = "Test-result webhooks";

/**
 * Test-result endpoints through REST, for integrators (an LMS) who should not need the
 * dashboard: the same domain functions as the dashboard's /api/app routes, `cert:read` to
 * read and `cert:admin` to change.
 */
export const testResultEndpointContracts = {
  list: contract({
    id: "testResultWebhooksApi.list",
    method: "GET",
    path: "/api/v1/test-result-webhooks",
    caller: "workspace",
    scope: "cert:read",
    query: pagingQuery,
    status: 200,
    response: testResultWebhookList,
    docs: { tag: testResultTag, summary: "List test-result endpoints", description: "Not in the specification (additive). The workspace's test-result endpoints, newest first (secrets are never returned); each receives `test.completed` only." },
  }),
  create: contract({
    id: "testResultWebhooksApi.create",
    method: "POST",
    path: "/api/v1/test-result-webhooks",
    caller: "workspace",
    scope: "cert:admin",
    body: createTestResultWebhookInput,
    status: 201,
    response: createdTestResultWebhook,
    docs: {
      tag: testResultTag,
      summary: "Add a test-result endpoint",
      description: "Not in the specification (additive). An address that receives `test.completed`; the secret (`whsec_…`) is generated and returned this once. At most 20 per workspace (409 beyond).",
      errors: [409],
    },
  }),
  remove: contract({
    id: "testResultWebhooksApi.delete",
    method: "DELETE",
    path: "/api/v1/test-result-webhooks/{id}",
    caller: "workspace",
    scope: "cert:admin",
    params: webhook,
    status: 200,
    response: deleted,
    docs: { tag: testResultTag, summary: "Delete a test-result endpoint", description: "Not in the specification (additive). Nothing more is sent to it; its delivery log goes with it." },
  }),
  deliveries: contract({
    id: "testResultWebhooksApi.deliveries",
    method: "GET",
    path: "/api/v1/test-result-webhooks/{id}/deliveries",
    caller: "workspace",
    scope: "cert:read",
    params: webhook,
    query: deliveryQuery,
    status: 200,
    response: deliveryList,
    docs: {
      tag: testResultTag,
      summary: "A test-result endpoint's delivery log",
      description: "Not in the specification (additive). Each delivery, newest first, with its status and every attempt; `status`, `event` and `since` narrow it.",
    },
  }),
  ...managementContracts("testResultWebhooksApi", "/api/v1/test-result-webhooks", "cert:admin", updateTestResultWebhookInput, {
    tag: testResultTag,
    fields: "`url` and `enabled`",
  }),
};
