import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { DeliveryEventCell, EndpointHealth } from "@/components/webhooks/endpoint-health";
import { queryKeys } from "@/components/query-keys";
import type { EndpointHealthList } from "@/lib/platform/webhooks/health/schemas";
import type { DeliveryView, WebhookView } from "@/lib/platform/webhooks/schemas";

/** The dashboard's pieces of endpoint health, rendered as the server renders them. */

const textOf = (html: string) => html.replace(/<[^>]+>/g, "").replace(/&quot;/g, '"');

const webhook: WebhookView = {
  id: "wh_1",
  url: "https://example.com/hook",
  events: [],
  created_at: "2026-11-20T10:00:00.000Z",
  enabled: true,
  disabled_at: null,
  disabled_reason: null,
};

function renderHealth(view: WebhookView, figures: EndpointHealthList["data"]) {
  const client = new QueryClient();
  client.setQueryData(queryKeys.webhookHealth(), { window_hours: 24, data: figures });
  return textOf(renderToStaticMarkup(createElement(QueryClientProvider, { client }, createElement(EndpointHealth, { webhook: view }))));
}

const figures = (over: Partial<EndpointHealthList["data"][number]> = {}) => [
  { endpoint_id: "wh_1", attempts: 8, succeeded: 6, success_rate: 0.75, p50_latency_ms: 212, failing_since: null, health_mailed_at: null, ...over },
];

describe("an endpoint's health in the dashboard", () => {
  it("shows the success rate and p50 latency of the last 24 hours, and since when it fails", () => {
    expect(renderHealth(webhook, figures())).toContain("Last 24 h: 75% of 8 attempts succeeded · p50 latency 212 ms");
    const failing = renderHealth(webhook, figures({ failing_since: "2026-11-26T08:30:00.000Z" }));
    expect(failing).toContain("Failing since 26 Nov 2026, 08:30 UTC");
    expect(renderHealth(webhook, figures({ attempts: 0, succeeded: 0, success_rate: null, p50_latency_ms: null }))).toContain("No attempt in the last 24 h");
  });

  it("says when the service disabled the endpoint for failing", () => {
    const disabled = { ...webhook, enabled: false, disabled_at: "2026-11-26T09:00:00.000Z", disabled_reason: "failing" as const };
    const text = renderHealth(disabled, figures({ failing_since: "2026-11-21T09:00:00.000Z" }));
    expect(text).toContain("Disabled 26 Nov 2026, 09:00 UTC after days of nothing but failures");
    expect(text).not.toContain("Failing since");
    expect(renderHealth({ ...disabled, disabled_reason: "manual" }, figures())).not.toContain("Disabled");
  });
});

describe("what a delivery was about, in the log", () => {
  const delivery = (about: DeliveryView["about"]): DeliveryView => ({
    id: "dlv_1",
    event_id: "evt_1",
    event: "test.completed",
    status: "delivered",
    attempts: [],
    next_attempt_at: null,
    created_at: "2026-11-26T10:00:00.000Z",
    redelivery_of: null,
    about,
  });
  const cell = (about: DeliveryView["about"]) => textOf(renderToStaticMarkup(createElement(DeliveryEventCell, { delivery: delivery(about) })));

  it("names the test and recipient, or the competition object, and labels a test event", () => {
    expect(cell({ sample: false, test: "ABCD-EFGH", recipient_email: "ada@example.test", object: null })).toBe("test.completedevt_1test ABCD-EFGH · ada@example.test");
    expect(cell({ sample: false, test: null, recipient_email: null, object: { type: "ctf", id: "ctf_1", title: "Spring CTF" } })).toContain("ctf “Spring CTF” (ctf_1)");
    expect(cell({ sample: true, test: "SAMPLE-TEST", recipient_email: "recipient@example.com", object: null })).toContain("Test eventtest SAMPLE-TEST");
    expect(cell({ sample: false, test: "ABCD-EFGH", recipient_email: "a@example.test", object: null })).not.toContain("Test event");
  });
});
