import type { Db } from "@/db";
import type { DeliveryView } from "@/lib/platform/webhooks/schemas";
import { listDeliveries } from "@/lib/platform/webhooks/deliveries";

/** Polls `check` until it returns a truthy value; fails with `what` after `timeoutMs`. */
export async function waitUntil<T>(what: string, check: () => Promise<T | undefined | null | false>, timeoutMs = 15_000, intervalMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(intervalMs);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The delivery log of one endpoint (every delivery, every attempt), as the API shows it. */
export async function deliveriesOf(db: Db, workspaceId: string, endpointId: string): Promise<DeliveryView[]> {
  return (await listDeliveries(db, workspaceId, endpointId, { page: 1, per_page: 100 })).data;
}

/** Waits until every delivery of the endpoint (at least `count`) is delivered or dropped. */
export async function settledDeliveries(
  db: Db,
  workspaceId: string,
  endpointId: string,
  count = 1,
  timeoutMs = 15_000,
  intervalMs = 50,
): Promise<DeliveryView[]> {
  return waitUntil(
    `${count} settled deliveries to ${endpointId}`,
    async () => {
      const deliveries = await deliveriesOf(db, workspaceId, endpointId);
      return deliveries.length >= count && deliveries.every((d) => d.status !== "pending") ? deliveries : undefined;
    },
    timeoutMs,
    intervalMs,
  );
}

/** Gaps between the end of attempt n and the start of attempt n + 1 (the backoff). */
export function backoffGaps(delivery: DeliveryView): number[] {
  const gaps: number[] = [];
  for (let i = 1; i < delivery.attempts.length; i++) {
    const previous = delivery.attempts[i - 1];
    const ended = Date.parse(previous.started_at) + previous.duration_ms;
    gaps.push(Date.parse(delivery.attempts[i].started_at) - ended);
  }
  return gaps;
}
