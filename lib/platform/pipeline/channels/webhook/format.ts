import { createHmac } from "node:crypto";
import type { Event, WebhookEndpoint } from "@/db/schema";
import { serviceOf } from "@/lib/platform/pipeline/channels/webhook/events";
import { unseal } from "@/lib/platform/security/sealing";

export type WireMessage = { body: string; headers: Record<string, string> };

export function hmacHex(secret: string, body: string): string {
  return createHmac("sha256", Buffer.from(secret, "utf8")).update(body, "utf8").digest("hex");
}

/** Compact JSON with object keys sorted at every depth: stable bytes for signing. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === "object" && !(value instanceof Date)) {
    return Object.fromEntries(
      Object.keys(value as Record<string, unknown>)
        .sort()
        .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

/** ISO 8601 with an explicit offset, as the certification spec asks. */
export function isoWithOffset(date: Date): string {
  return date.toISOString().replace("Z", "+00:00");
}

/**
 * Builds the exact bytes and headers of one delivery, in the wire format of the event's
 * service. The signature is over exactly these bytes.
 */
export function buildWireMessage(event: Pick<Event, "id" | "type" | "data">, secret: string, now = new Date()): WireMessage {
  if (serviceOf(event.type) === "certification") {
    const body = JSON.stringify({ event: event.type, payload: { ...event.data, event_id: event.id }, sent_at: isoWithOffset(now) });
    return {
      body,
      headers: {
        "Content-Type": "application/json",
        "User-Agent": "Certify-Webhook/1",
        "X-Webhook-Event": event.type,
        "X-Webhook-Event-Id": event.id,
        "X-Webhook-Signature": hmacHex(secret, body),
      },
    };
  }
  const body = canonicalJson({ data: event.data, delivered_at: Math.floor(now.getTime() / 1000), event: event.type });
  return {
    body,
    headers: {
      "Content-Type": "application/json",
      "User-Agent": "Service-Webhook/1",
      "X-Service-Event": event.type,
      "X-Service-Event-Id": event.id,
      "X-Service-Signature": `sha256=${hmacHex(secret, body)}`,
    },
  };
}

/**
 * An endpoint's signing secret, opened from its sealed copy: the database keeps the secret
 * sealed with the application key (a copy of it alone cannot forge deliveries), and only the
 * signing of a delivery opens it. The API shows a generated secret once, from memory, at creation.
 */
export function endpointSecret(endpoint: Pick<WebhookEndpoint, "secretSealed">): string {
  return unseal("webhook_endpoints.secret", endpoint.secretSealed);
}
