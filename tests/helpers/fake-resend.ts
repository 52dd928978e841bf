import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local stand-in for the Resend API (the two calls the app makes), on 127.0.0.1:
 *   POST /emails        → 200 { id }
 *   POST /emails/batch  → 200 { data: [{ id }, …] }  (one id per message, in order)
 * It records every request and every message it "sent", and models Resend's idempotency
 * keys: a repeated key with the same body replays the first answer without sending again; a
 * repeated key with another body is refused with 409. It can fail the next N calls with a
 * 500 (nothing sent), or send and then lose the answer (the caller sees a 500).
 */

export type ResendCall = {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
  /** HTTP status the caller saw. */
  status: number;
  /** Ids handed out (empty when nothing was accepted). */
  ids: string[];
  /** Answered from the idempotency store: nothing sent again. */
  replayed: boolean;
  at: number;
};

export type SentMessage = { id: string; to: string; subject: string; idempotencyKey?: string };

export type FakeResend = {
  url: string;
  calls: ResendCall[];
  /** Every message accepted for sending (a replayed request adds none). */
  sent: SentMessage[];
  /** The next `count` calls answer `status` (500 unless told) and send nothing. */
  failNext(count: number, status?: number): void;
  /** The next `count` calls are processed (messages sent, key stored) but answered 500. */
  loseNextResponses(count: number): void;
  close(): Promise<void>;
};

export async function startFakeResend(): Promise<FakeResend> {
  const calls: ResendCall[] = [];
  const sent: SentMessage[] = [];
  const idempotency = new Map<string, { body: string; status: number; payload: unknown; ids: string[] }>();
  let failures = 0;
  let failureStatus = 500;
  let lostResponses = 0;

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
      const answer = (status: number, payload: unknown) => {
        call.status = status;
        res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(payload));
      };

      if (req.method !== "POST" || (path !== "/emails" && path !== "/emails/batch")) {
        return answer(404, { statusCode: 404, name: "not_found", message: `no route ${req.method} ${path}` });
      }
      if (!String(req.headers.authorization ?? "").startsWith("Bearer ")) {
        return answer(401, { statusCode: 401, name: "missing_api_key", message: "Missing API key in the authorization header." });
      }
      if (failures > 0) {
        failures -= 1;
        return answer(failureStatus, { statusCode: failureStatus, name: "internal_server_error", message: "fake outage" });
      }
      const storeKey = key ? `${path} ${key}` : undefined;
      const stored = storeKey ? idempotency.get(storeKey) : undefined;
      if (stored) {
        if (stored.body !== text) {
          return answer(409, {
            statusCode: 409,
            name: "invalid_idempotent_request",
            message: "Same idempotency key used with a different request payload.",
          });
        }
        call.replayed = true;
        call.ids = stored.ids;
        return answer(stored.status, stored.payload);
      }

      const messages: any[] = path === "/emails" ? [body] : Array.isArray(body) ? body : [];
      if (path === "/emails/batch" && !Array.isArray(body)) {
        return answer(422, { statusCode: 422, name: "validation_error", message: "The batch body must be an array." });
      }
      const ids = messages.map(() => randomUUID());
      for (const [index, message] of messages.entries()) {
        sent.push({ id: ids[index], to: String(message?.to), subject: String(message?.subject), idempotencyKey: key });
      }
      const payload = path === "/emails" ? { id: ids[0] } : { data: ids.map((id) => ({ id })) };
      if (storeKey) idempotency.set(storeKey, { body: text, status: 200, payload, ids });
      call.ids = ids;
      if (lostResponses > 0) {
        lostResponses -= 1;
        call.ids = [];
        return answer(500, { statusCode: 500, name: "internal_server_error", message: "response lost" });
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
    failNext(count, status = 500) {
      failures = count;
      failureStatus = status;
    },
    loseNextResponses(count) {
      lostResponses = count;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
