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
 * The secrets a delivery is signed with: the endpoint's current one and, while a rotation's
 * overlap lasts, the one before it.
 */
export type SigningSecrets = { current: string; previous?: string };

/**
 * Standard Webhooks' signature (https://www.standardwebhooks.com): `v1,` and the base64
 * HMAC-SHA256 over `{id}.{timestamp}.{body}`, keyed — like the specifications' signatures —
 * with the secret's UTF-8 bytes (the `standardwebhooks` library takes them with
 * `{ format: "raw" }`).
 */
function standardSignature(secret: string, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac("sha256", Buffer.from(secret, "utf8")).update(`${id}.${timestamp}.${body}`, "utf8").digest("base64")}`;
}

/**
 * Standard Webhooks' headers beside the specification's: `webhook-id` (the event id, the same
 * on every attempt), `webhook-timestamp` (Unix seconds of this attempt) and
 * `webhook-signature`, one `v1,…` per secret, space-separated (the current secret first).
 */
function standardHeaders(id: string, now: Date, body: string, secrets: SigningSecrets): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  const keys = secrets.previous === undefined ? [secrets.current] : [secrets.current, secrets.previous];
  return {
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": keys.map((key) => standardSignature(key, id, timestamp, body)).join(" "),
  };
}

/**
 * Builds the exact bytes and headers of one delivery, in the wire format of the event's
 * service. The signatures are over exactly these bytes. The specification's single-valued
 * signature header is signed with the current secret only, during a rotation's overlap too
 * (docs/webhooks.md, "Signing during a secret rotation", says why); `webhook-signature`
 * carries both.
 */
export function buildWireMessage(event: Pick<Event, "id" | "type" | "data">, secrets: string | SigningSecrets, now = new Date()): WireMessage {
  const keys = typeof secrets === "string" ? { current: secrets } : secrets;
  if (serviceOf(event.type) === "certification") {
    const body = JSON.stringify({ event: event.type, payload: { ...event.data, event_id: event.id }, sent_at: isoWithOffset(now) });
    return {
      body,
      headers: {
        "Content-Type": "application/json",
        "User-Agent": "Certify-Webhook/1",
        "X-Webhook-Event": event.type,
        "X-Webhook-Event-Id": event.id,
        "X-Webhook-Signature": hmacHex(keys.current, body),
        ...standardHeaders(event.id, now, body, keys),
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
      "X-Service-Signature": `sha256=${hmacHex(keys.current, body)}`,
      ...standardHeaders(event.id, now, body, keys),
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

/** What signing needs of an endpoint: its sealed secret and, after a rotation, the previous one and until when it signs. */
export type SealedSecrets = Pick<WebhookEndpoint, "secretSealed" | "previousSecretSealed"> & { previousSecretExpiresAt: Date | null };

/**
 * The secrets a delivery at `at` is signed with: the current one (a secret that cannot be
 * opened fails the attempt, as before) and the previous one while its overlap lasts. A
 * previous secret that cannot be opened is left out, not an error: the delivery still goes
 * out, signed with the current secret.
 */
export function endpointSecrets(endpoint: SealedSecrets, at: Date): SigningSecrets {
  const current = endpointSecret(endpoint);
  const { previousSecretSealed: sealed, previousSecretExpiresAt: expiresAt } = endpoint;
  if (!sealed || !expiresAt || expiresAt.getTime() <= at.getTime()) return { current };
  try {
    return { current, previous: unseal("webhook_endpoints.secret", sealed) };
  } catch {
    return { current };
  }
}
