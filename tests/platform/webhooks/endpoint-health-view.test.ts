import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { DeliveryEventCell, EndpointHealth } from "@/components/webhooks/endpoint-health";
import { queryKeys } from "@/components/query-keys";
import type { EndpointHealthList } from "@/lib/platform/webhooks/health/schemas";
import { sampleEventData } from "@/lib/platform/webhooks/samples";
import type { DeliveryView, WebhookView } from "@/lib/platform/webhooks/schemas";
import { aboutEvent, SAMPLE_SUBJECT } from "@/lib/platform/webhooks/subjects";

/** The dashboard's pieces of endpoint health, rendered as the server renders them. */

const textOf = (html: string) => html.replace(/<[^>]+>/g, "").replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&gt;/g, ">");

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
  const delivery = (event: string, data: Record<string, unknown>): DeliveryView => {
    const about = aboutEvent(event, data);
    return {
      id: "dlv_1",
      event_id: "evt_1",
      event,
      status: "delivered",
      attempts: [],
      next_attempt_at: null,
      created_at: "2026-11-26T10:00:00.000Z",
      redelivery_of: null,
      about,
      kind: about.sample ? "test_event" : "event",
    };
  };
  const cell = (event: string, data: Record<string, unknown>) => textOf(renderToStaticMarkup(createElement(DeliveryEventCell, { delivery: delivery(event, data) })));
  const completed = (recipient: { email: string; name: string }) => ({ test: "K7Q2M9XR", score: 80, correct: 4, questions: 5, recipient, domains: [] });

  it("names the test and the recipient, by name and e-mail", () => {
    expect(cell("test.completed", completed({ email: "ada@example.test", name: "Ada Lovelace" }))).toBe(
      "test.completedevt_1Test K7Q2M9XR · Ada Lovelace <ada@example.test> · Open the test",
    );
    expect(cell("test.completed", completed({ email: "ada@example.test", name: " " }))).toBe("test.completedevt_1Test K7Q2M9XR · ada@example.test · Open the test");
    const html = renderToStaticMarkup(createElement(DeliveryEventCell, { delivery: delivery("test.completed", completed({ email: "a@example.test", name: "A" })) }));
    expect(html).toContain('href="/tests/K7Q2M9XR"');
  });

  it("names the competition object and what it belongs to", () => {
    expect(cell("ctf.deployed", { managed_ctf_id: "ctf_1", title: "Spring CTF", url: "https://ctf.example.test", is_public: true })).toContain("Competition “Spring CTF” (ctf_1)");
    expect(cell("challenge.published", { managed_ctf_id: "ctf_1", challenge_id: "chl_1", title: "Buffer", category: "pwn", platform_challenge_id: 7 })).toContain(
      "Challenge “Buffer” (chl_1) · competition ctf_1",
    );
    expect(cell("member.joined", { managed_ctf_id: "ctf_1", member_id: "mem_1", email: "p@example.test", joined_at: "2026-11-26T10:00:00Z" })).toContain(
      "Member p@example.test · competition ctf_1",
    );
    expect(cell("deployment.stopped", { deployment_id: "dep_1", challenge_id: "chl_1", stopped_at: "2026-11-26T10:00:00Z", reason: "window_elapsed" })).toContain(
      "Deployment dep_1 · challenge chl_1",
    );
  });

  it("marks a sample as a test event, not a result", () => {
    const sample = cell("test.completed", sampleEventData("test.completed"));
    expect(sample).toBe(`test.completedTest eventevt_1${SAMPLE_SUBJECT}`);
    expect(sample).not.toContain("recipient@example.com");
    expect(sample).not.toContain("Open the test");
    expect(cell("member.joined", sampleEventData("member.joined"))).toContain("Test event");
    expect(cell("test.completed", completed({ email: "a@example.test", name: "A" }))).not.toContain("Test event");
  });
});
