import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local stand-in for the Resend API (the two calls the app makes), on 127.0.0.1, that
 * behaves like Resend where the app must cope with it:
 *   POST /emails        → 200 { id }
 *   POST /emails/batch  → 200 { data: [{ id }, …] }, and with `x-batch-validation: permissive`
 *                          { data: [ids of the accepted, in order], errors: [{ index, message }] }
 * - **Rate limit per API key** (default 2 requests/s, Resend's default): a token bucket of
 *   `ratePerSecond` requests, refilled at that rate; past it `429 rate_limit_exceeded` with
 *   `retry-after` (whole seconds) and `ratelimit-limit/-remaining/-reset`. Every answer
 *   carries the `ratelimit-*` headers. A refused request uses no token.
 * - **Validation**: an invalid `to` address is `422 validation_error` (strict batches: the
 *   whole batch); permissive batches send the good ones and list the bad ones by index.
 * - **Idempotency keys**: a repeated key with the same body replays the first answer without
 *   sending again; another body → `409 invalid_idempotent_request`; a repeat while the first
 *   is still being answered → `409 concurrent_idempotent_requests`.
 * - **Failure modes**: an outage (`500` for a while, nothing sent), the next N calls failing,
 *   answers lost after sending, slow answers (after sending), and permanent refusals (an
 *   unverified sender domain → `403`, a revoked key → `401`).
 * It records every request and every message accepted, and counts acceptances per recipient.
 */

export type ResendCall = {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
  /** HTTP status the caller saw (0 while a slow answer is pending, -1 when the connection was closed unanswered). */
  status: number;
  /** Ids handed out (empty when nothing was accepted). */
  ids: string[];
  /** Answered from the idempotency store: nothing sent again. */
  replayed: boolean;
  at: number;
};

export type SentMessage = { id: string; to: string; subject: string; idempotencyKey?: string };

export type FakeResendOptions = {
  /** Requests per second per API key; `Infinity` for no limit. Default 2 (Resend's default). */
  ratePerSecond?: number;
};

export type FakeResend = {
  url: string;
  calls: ResendCall[];
  /** Every message accepted for sending (a replayed request adds none). */
  sent: SentMessage[];
  /** How many times a message to `address` was accepted (exactly once is the goal). */
  acceptedFor(address: string): number;
  /** The next `count` calls answer `status` (500 unless told) and send nothing. */
  failNext(count: number, status?: number): void;
  /** For the next `ms` milliseconds every call answers 500 and sends nothing. */
  outage(ms: number): void;
  /** The next `count` calls are processed (messages sent, key stored) but answered 500. */
  loseNextResponses(count: number): void;
  /** The next `count` calls get no answer at all: the connection is closed (a network error); nothing sent. */
  hangUpNext(count: number): void;
  /** The next `count` calls are processed (messages sent, key stored) and answered after `ms`. */
  slowNext(count: number, ms: number): void;
  /** Refuses every message from this sender domain with 403 (unverified domain); null to stop. */
  rejectSenderDomain(domain: string | null): void;
  /** Refuses every call with 401 `invalid_api_key` (a revoked key) while true. */
  revokeKey(revoked: boolean): void;
  setRatePerSecond(rate: number): void;
  close(): Promise<void>;
};

/** Good enough for the fake: one @, something on each side, a dot in the domain, no spaces or brackets. */
const validAddress = (value: unknown) => typeof value === "string" && /^[^\s@<>()",;]+@[^\s@<>()",;]+\.[^\s@<>()",;]+$/.test(value);
const addressesOf = (to: unknown): unknown[] => (Array.isArray(to) ? to : [to]);
const domainOf = (from: unknown) => /@([^>\s]+)>?\s*$/.exec(String(from ?? ""))?.[1]?.toLowerCase();

export async function startFakeResend(options: FakeResendOptions = {}): Promise<FakeResend> {
  const calls: ResendCall[] = [];
  const sent: SentMessage[] = [];
  const perRecipient = new Map<string, number>();
  const idempotency = new Map<string, { body: string; status: number; payload: unknown; ids: string[] }>();
  const inProgress = new Set<string>();
  const buckets = new Map<string, { tokens: number; at: number }>();
  let rate = options.ratePerSecond ?? 2;
  let failures = 0;
  let failureStatus = 500;
  let outageUntil = 0;
  let lostResponses = 0;
  let hangUps = 0;
  let slowResponses = 0;
  let slowMs = 0;
  let rejectedDomain: string | null = null;
  let keyRevoked = false;

  /** Takes a token from the key's bucket; returns the headers to send and whether it was admitted. */
  function admit(apiKey: string): { admitted: boolean; headers: Record<string, string> } {
    if (!Number.isFinite(rate)) return { admitted: true, headers: {} };
    const capacity = Math.max(1, rate);
    const now = Date.now();
    const bucket = buckets.get(apiKey) ?? { tokens: capacity, at: now };
    bucket.tokens = Math.min(capacity, bucket.tokens + ((now - bucket.at) * rate) / 1000);
    bucket.at = now;
    buckets.set(apiKey, bucket);
    const admitted = bucket.tokens >= 1;
    if (admitted) bucket.tokens -= 1;
    const untilToken = bucket.tokens >= 1 ? 0 : ((1 - bucket.tokens) / rate) * 1000;
    const reset = String(Math.max(1, Math.ceil(untilToken / 1000)));
    const headers: Record<string, string> = {
      "ratelimit-limit": String(capacity),
      "ratelimit-remaining": String(Math.floor(bucket.tokens)),
      "ratelimit-reset": reset,
    };
    if (!admitted) headers["retry-after"] = reset;
    return { admitted, headers };
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      let body: any = undefined;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = text;
      }
      const path = (req.url ?? "").split("?")[0];
      const key = req.headers["idempotency-key"] as string | undefined;
      const call: ResendCall = { method: req.method ?? "", path, headers: req.headers, body, status: 0, ids: [], replayed: false, at: Date.now() };
      calls.push(call);
      let extraHeaders: Record<string, string> = {};
      const answer = (status: number, payload: unknown, delayMs = 0) => {
        const send = () => {
          call.status = status;
          if (!res.destroyed) res.writeHead(status, { "content-type": "application/json", ...extraHeaders }).end(JSON.stringify(payload));
        };
        if (delayMs > 0) setTimeout(send, delayMs);
        else send();
      };
      const refuse = (status: number, name: string, message: string) => answer(status, { statusCode: status, name, message });

      if (req.method !== "POST" || (path !== "/emails" && path !== "/emails/batch")) {
        return refuse(404, "not_found", `no route ${req.method} ${path}`);
      }
      const authorization = String(req.headers.authorization ?? "");
      if (!authorization.startsWith("Bearer ")) return refuse(401, "missing_api_key", "Missing API key in the authorization header.");
      if (hangUps > 0) {
        hangUps -= 1;
        call.status = -1;
        return void req.socket.destroy();
      }
      if (Date.now() < outageUntil) return refuse(500, "internal_server_error", "fake outage");
      if (failures > 0) {
        failures -= 1;
        return refuse(failureStatus, failureStatus === 500 ? "internal_server_error" : "application_error", "fake outage");
      }
      const limit = admit(authorization);
      extraHeaders = limit.headers;
      if (!limit.admitted) {
        return refuse(429, "rate_limit_exceeded", `Too many requests. You can only make ${rate} requests per second. See rate limit response headers for more information.`);
      }
      if (keyRevoked) return refuse(401, "invalid_api_key", "API key is invalid");

      const storeKey = key ? `${authorization} ${path} ${key}` : undefined;
      if (storeKey && inProgress.has(storeKey)) {
        return refuse(409, "concurrent_idempotent_requests", "Same idempotency key used while original request is still in progress.");
      }
      const stored = storeKey ? idempotency.get(storeKey) : undefined;
      if (stored) {
        if (stored.body !== text) return refuse(409, "invalid_idempotent_request", "Same idempotency key used with a different request payload.");
        call.replayed = true;
        call.ids = stored.ids;
        return answer(stored.status, stored.payload);
      }

      const batch = path === "/emails/batch";
      if (batch && !Array.isArray(body)) return refuse(422, "validation_error", "The batch body must be an array.");
      const messages: any[] = batch ? body : [body];
      if (batch && messages.length > 100) return refuse(422, "validation_error", "Too many emails in the batch: at most 100.");
      const permissive = batch && String(req.headers["x-batch-validation"] ?? "strict") === "permissive";
      // Permanent refusals of the whole request: the sender's domain is not verified.
      const unverified = messages.find((message) => rejectedDomain && domainOf(message?.from) === rejectedDomain);
      if (unverified) {
        return refuse(403, "validation_error", `The ${rejectedDomain} domain is not verified. Please, add and verify your domain on https://resend.com/domains`);
      }
      const errors: { index: number; message: string }[] = [];
      messages.forEach((message, index) => {
        const bad = addressesOf(message?.to).find((address) => !validAddress(address));
        if (bad !== undefined || !message?.to) errors.push({ index, message: `Invalid \`to\` field. The email address needs to follow the \`email@example.com\` or \`Name <email@example.com>\` format.` });
      });
      if (errors.length && !permissive) return refuse(422, "validation_error", batch ? `emails[${errors[0].index}]: ${errors[0].message}` : errors[0].message);

      const refusedAt = new Set(errors.map((e) => e.index));
      const ids: string[] = [];
      messages.forEach((message, index) => {
        if (refusedAt.has(index)) return;
        const id = randomUUID();
        ids.push(id);
        for (const to of addressesOf(message.to)) {
          sent.push({ id, to: String(to), subject: String(message?.subject), idempotencyKey: key });
          perRecipient.set(String(to), (perRecipient.get(String(to)) ?? 0) + 1);
        }
      });
      const payload = !batch ? { id: ids[0] } : permissive ? { data: ids.map((id) => ({ id })), errors } : { data: ids.map((id) => ({ id })) };
      if (storeKey) idempotency.set(storeKey, { body: text, status: 200, payload, ids });
      call.ids = ids;
      if (lostResponses > 0) {
        lostResponses -= 1;
        call.ids = [];
        return refuse(500, "internal_server_error", "response lost");
      }
      if (slowResponses > 0) {
        slowResponses -= 1;
        if (storeKey) inProgress.add(storeKey);
        setTimeout(() => storeKey && inProgress.delete(storeKey), slowMs);
        return answer(200, payload, slowMs);
      }
      return answer(200, payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    sent,
    acceptedFor: (address) => perRecipient.get(address) ?? 0,
    failNext(count, status = 500) {
      failures = count;
      failureStatus = status;
    },
    outage(ms) {
      outageUntil = Date.now() + ms;
    },
    loseNextResponses(count) {
      lostResponses = count;
    },
    hangUpNext(count) {
      hangUps = count;
    },
    slowNext(count, ms) {
      slowResponses = count;
      slowMs = ms;
    },
    rejectSenderDomain(domain) {
      rejectedDomain = domain?.toLowerCase() ?? null;
    },
    revokeKey(revoked) {
      keyRevoked = revoked;
    },
    setRatePerSecond(next) {
      rate = next;
      buckets.clear();
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
