import { createHmac, timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * Real HTTP receivers on 127.0.0.1 for the delivery tests. Each records every request it
 * got (raw body bytes, headers, arrival time) and answers with a fixed behaviour. The
 * signature verifiers below are written from the two specs, not from the app's code.
 */

export type RecordedRequest = {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The body exactly as it arrived on the wire. */
  raw: Buffer;
  /** Wall clock (comparable with timestamps the app records). */
  at: number;
  /** Monotonic clock, for measuring gaps. */
  perf: number;
  /** Monotonic time the exchange ended (answer sent, or the connection closed by either side). */
  closedPerf?: number;
};

export type Behaviour =
  | { kind: "ok" }
  | { kind: "status"; status: number }
  /** Reads the request, never answers. */
  | { kind: "hang" }
  /** Reads the request, then destroys the socket without an answer. */
  | { kind: "reset" }
  /** 302 to `location` (another receiver that would answer 200). */
  | { kind: "redirect"; location: string }
  /** 500 for the first `failures` requests, then 200. */
  | { kind: "failThenOk"; failures: number }
  /** 200 after `delayMs`. */
  | { kind: "slow"; delayMs: number };

export type Receiver = {
  name: string;
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** TCP connections accepted. */
  connections: number;
  /** Resolves once `count` requests have arrived (rejects after `timeoutMs`). */
  waitForRequests(count: number, timeoutMs?: number): Promise<RecordedRequest[]>;
  /** Requests parsed as JSON. */
  bodies<T = any>(): T[];
  close(): Promise<void>;
};

export async function startReceiver(behaviour: Behaviour, name: string = behaviour.kind): Promise<Receiver> {
  const requests: RecordedRequest[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let connections = 0;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const record: RecordedRequest = {
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        raw: Buffer.concat(chunks),
        at: Date.now(),
        perf: performance.now(),
      };
      requests.push(record);
      res.on("close", () => {
        record.closedPerf = performance.now();
      });
      for (const waiter of [...waiters]) {
        if (requests.length >= waiter.count) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
      }
      const index = requests.length;
      switch (behaviour.kind) {
        case "ok":
          res.writeHead(200, { "content-type": "text/plain" }).end("ok");
          return;
        case "status":
          res.writeHead(behaviour.status, { "content-type": "text/plain" }).end(`status ${behaviour.status}`);
          return;
        case "hang":
          return;
        case "reset":
          req.socket.destroy();
          return;
        case "redirect":
          res.writeHead(302, { location: behaviour.location }).end();
          return;
        case "failThenOk":
          if (index <= behaviour.failures) res.writeHead(500).end("not yet");
          else res.writeHead(200).end("ok");
          return;
        case "slow": {
          const timer = setTimeout(() => {
            timers.delete(timer);
            if (!res.destroyed) res.writeHead(200).end("ok, slowly");
          }, behaviour.delayMs);
          timers.add(timer);
          return;
        }
      }
    });
  });
  server.on("connection", () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    name,
    url: `http://127.0.0.1:${port}/hook/${name}`,
    port,
    requests,
    get connections() {
      return connections;
    },
    waitForRequests(count, timeoutMs = 15_000) {
      if (requests.length >= count) return Promise.resolve(requests.slice());
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(new Error(`receiver ${name}: ${requests.length} of ${count} requests after ${timeoutMs} ms`));
        }, timeoutMs);
        const waiter = {
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve(requests.slice());
          },
        };
        waiters.push(waiter);
      });
    },
    bodies() {
      return requests.map((request) => JSON.parse(request.raw.toString("utf8")));
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Keeps the receivers a test file starts, so one afterAll closes them all. */
export function receiverPool() {
  const started: Receiver[] = [];
  return {
    async start(behaviour: Behaviour, name?: string): Promise<Receiver> {
      const receiver = await startReceiver(behaviour, name);
      started.push(receiver);
      return receiver;
    },
    async closeAll(): Promise<void> {
      await Promise.all(started.splice(0).map((receiver) => receiver.close()));
    },
  };
}

export type Verification = "valid" | "missing" | "malformed" | "mismatch";

function header(headers: http.IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

function constantTimeHexEqual(expectedHex: string, receivedHex: string): boolean {
  if (!/^[0-9a-f]+$/i.test(receivedHex)) return false;
  const expected = Buffer.from(expectedHex, "hex");
  const received = Buffer.from(receivedHex, "hex");
  // timingSafeEqual needs equal lengths; a length difference is not secret.
  if (expected.length !== received.length) return false;
  return timingSafeEqual(expected, received);
}

/**
 * Competition platform receiver: `X-Service-Signature: sha256=<hex>`, the HMAC-SHA256 of
 * the raw body bytes keyed with the endpoint secret, compared in constant time. A header
 * that does not start with `sha256=` is malformed.
 */
export function verifyCompetition(raw: Buffer, headers: http.IncomingHttpHeaders, secret: string): Verification {
  const signature = header(headers, "X-Service-Signature");
  if (signature === undefined) return "missing";
  if (!signature.startsWith("sha256=")) return "malformed";
  const expected = createHmac("sha256", secret).update(raw).digest("hex");
  return constantTimeHexEqual(expected, signature.slice("sha256=".length)) ? "valid" : "mismatch";
}

/**
 * Certification service receiver: `X-Webhook-Signature` is the hex HMAC-SHA256 of the raw
 * body bytes keyed with the registration's secret, compared as a hex digest in constant time.
 */
export function verifyCertification(raw: Buffer, headers: http.IncomingHttpHeaders, secret: string): Verification {
  const signature = header(headers, "X-Webhook-Signature");
  if (signature === undefined) return "missing";
  const expected = createHmac("sha256", secret).update(raw).digest("hex");
  return constantTimeHexEqual(expected, signature) ? "valid" : "mismatch";
}

/** Compact JSON with keys sorted at every depth, as a receiver would rebuild it. */
export function sortedCompactJson(value: unknown): string {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort);
    if (v !== null && typeof v === "object") {
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(v as object).sort()) out[key] = sort((v as Record<string, unknown>)[key]);
      return out;
    }
    return v;
  };
  return JSON.stringify(sort(value));
}
