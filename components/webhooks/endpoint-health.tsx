"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { callApi } from "@/components/api";
import { formatDateTime } from "@/components/format/date";
import { queryKeys } from "@/components/query-keys";
import { webhookHealthContracts } from "@/lib/platform/webhooks/health/contracts";
import type { EndpointHealthView } from "@/lib/platform/webhooks/health/schemas";
import type { DeliveryView, WebhookView } from "@/lib/platform/webhooks/schemas";

/** Every endpoint's figures, one request for the page (each card picks its own). */
function useEndpointHealth(endpointId: string): EndpointHealthView | undefined {
  const health = useQuery({
    queryKey: queryKeys.webhookHealth(),
    queryFn: () => callApi(webhookHealthContracts.health, {}),
    refetchInterval: 30_000,
  });
  return health.data?.data.find((row) => row.endpoint_id === endpointId);
}

/**
 * An endpoint's health under its address: over the last 24 hours the share of attempts answered
 * 2xx and their median (p50) duration; since when it has been failing; why it was disabled.
 */
export function EndpointHealth({ webhook }: { webhook: WebhookView }) {
  const health = useEndpointHealth(webhook.id);
  const rate = health?.success_rate;
  const tone = rate === null || rate === undefined ? "text-slate-500" : rate >= 0.95 ? "text-green-700" : rate >= 0.5 ? "text-amber-700" : "text-red-700";
  return (
    <div className="mt-1 space-y-0.5 text-xs" data-testid="endpoint-health">
      {health ? (
        <p className={tone}>
          {health.attempts === 0 ? (
            "No attempt in the last 24 h"
          ) : (
            <>
              Last 24 h: <span data-testid="endpoint-success-rate">{Math.round(rate! * 1000) / 10}%</span> of {health.attempts} attempt
              {health.attempts === 1 ? "" : "s"} succeeded · p50 latency <span data-testid="endpoint-latency">{health.p50_latency_ms} ms</span>
            </>
          )}
        </p>
      ) : null}
      {health?.failing_since && webhook.enabled ? (
        <p className="text-red-700">Failing since {formatDateTime(health.failing_since)}: every attempt since then has failed.</p>
      ) : null}
      {!webhook.enabled && webhook.disabled_reason === "failing" ? (
        <p className="text-red-700" data-testid="endpoint-disabled-failing">
          Disabled {formatDateTime(webhook.disabled_at)} after days of nothing but failures. Enable it once the receiver answers, then recover what it missed.
        </p>
      ) : null}
    </div>
  );
}

/**
 * A delivery's event cell: the event (a sample marked "Test event" beside it, so it is not
 * taken for a real result), its id, and what it was about in words (the view's `about.subject`),
 * with a link to the test of a real result.
 */
export function DeliveryEventCell({ delivery }: { delivery: DeliveryView }) {
  return (
    <td className="py-2 font-mono">
      {delivery.event}
      {delivery.kind === "test_event" ? (
        <span className="ml-2 font-sans" data-testid="delivery-test-event">
          <Badge tone="warning">Test event</Badge>
        </span>
      ) : null}
      <span className="block text-xs text-slate-500">{delivery.event_id}</span>
      {delivery.about.subject ? (
        <span className="block wrap-anywhere font-sans text-xs text-slate-700">
          <span data-testid="delivery-about">{delivery.about.subject}</span>
          {/* The event carries the test's code only: its page has the name, the recipient and the result. */}
          {delivery.about.test && !delivery.about.sample ? (
            <>
              {" · "}
              <Link href={`/tests/${encodeURIComponent(delivery.about.test)}`} className="font-medium text-brand-700 underline">
                Open the test
              </Link>
            </>
          ) : null}
        </span>
      ) : null}
    </td>
  );
}
