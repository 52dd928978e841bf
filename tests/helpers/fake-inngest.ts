import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local stand-in for the Inngest event API and REST API on 127.0.0.1. With INNGEST_DEV
 * (or INNGEST_BASE_URL) pointing at it, `inngest.send()` POSTs a JSON array of events to
 * `/e/<event key>`; the fake records them and answers `{ ids, status: 200 }`, or 500 while
 * it is told to fail. The registration of an app (`PUT /api/inngest`) POSTs to
 * `/fn/register` with `Authorization: Bearer <hashed signing key>`: the fake records the
 * body and answers in the shape the SDK parses (`{ status, modified, error? }`), or 401 when
 * `registerKey` is set and the bearer differs.
 */

export type SentEvent = { name: string; id?: string; data: Record<string, any>; ts?: number };

export type InngestCall = {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  events: SentEvent[];
  /** The parsed JSON body (a registration's app and functions). */
  body: unknown;
  status: number;
};

export type FakeInngest = {
  url: string;
  calls: InngestCall[];
  /** Events received by calls that were answered 200. */
  accepted(): SentEvent[];
  /** While true every call is answered 500. */
  failing: boolean;
  /** The registrations received (POST /fn/register), answered 200 or 401. */
  registrations(): InngestCall[];
  /** When set, a registration whose bearer token differs is answered 401. */
  registerKey: string | undefined;
  close(): Promise<void>;
};

export async function startFakeInngest(): Promise<FakeInngest> {
  const calls: InngestCall[] = [];
  const state: { failing: boolean; registerKey: string | undefined } = { failing: false, registerKey: undefined };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      let parsed: unknown = [];
      try {
        parsed = text ? JSON.parse(text) : [];
      } catch {
        parsed = [];
      }
      const events = (Array.isArray(parsed) ? parsed : [parsed]) as SentEvent[];
      const call: InngestCall = { method: req.method ?? "", path: (req.url ?? "").split("?")[0], headers: req.headers, events, body: parsed, status: 0 };
      calls.push(call);
      const answer = (status: number, payload: unknown) => {
        call.status = status;
        res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(payload));
      };
      if (req.method === "POST" && call.path === "/fn/register") {
        call.events = [];
        if (state.failing) return answer(500, { status: 500, error: "fake outage" });
        if (state.registerKey !== undefined && req.headers.authorization !== `Bearer ${state.registerKey}`) return answer(401, { status: 401, error: "Invalid signing key" });
        return answer(200, { status: 200, ok: true, modified: true });
      }
      if (req.method !== "POST" || !call.path.startsWith("/e/")) return answer(404, { error: "not found", status: 404 });
      if (state.failing) return answer(500, { error: "fake outage", status: 500 });
      answer(200, { ids: events.map(() => randomUUID()), status: 200 });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    accepted: () => calls.filter((call) => call.status === 200 && call.path.startsWith("/e/")).flatMap((call) => call.events),
    registrations: () => calls.filter((call) => call.path === "/fn/register"),
    get registerKey() {
      return state.registerKey;
    },
    set registerKey(value: string | undefined) {
      state.registerKey = value;
    },
    get failing() {
      return state.failing;
    },
    set failing(value: boolean) {
      state.failing = value;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
