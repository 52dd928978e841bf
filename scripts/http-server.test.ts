import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "@/lib/kernel/config/config";
import { clientAddress } from "@/lib/platform/ratelimit/client-ip";
import { trickle } from "@/tests/helpers/slow-client";
import { createAppServer, forwardedFor, parseMilliseconds, parseTrustProxy, serverSettings, type ServerSettings } from "./http-server.mjs";

/**
 * The HTTP server of `npm start` (scripts/serve.mjs), with a stand-in for Next.js's handler:
 * its variables parse as lib/kernel/config/config.ts parses them, client addresses come from the socket,
 * slow clients are cut off, and methods no route handler can serve get the error shape. The
 * same checks against the built app, through Next.js: e2e/security.spec.ts.
 */

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** What lib/kernel/config/config.ts makes of `value`: the parsed setting, or the message naming the variable. */
function configured(name: string, value: string | undefined, pick: (config: ReturnType<typeof parseConfig>) => number, others: Record<string, string> = {}): number | string {
  try {
    return pick(parseConfig({ ...others, [name]: value }));
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const problem = error.problems.find((p) => p.variable === name);
    if (!problem) throw error;
    return problem.message.replace(/ \(got .*\)$/, "");
  }
}

/** What scripts/http-server.mjs makes of it, the same way. */
function served(parse: () => number): number | string {
  try {
    return parse();
  } catch (error) {
    return (error as Error).message;
  }
}

describe("the server's variables parse as lib/kernel/config/config.ts parses them", () => {
  const rawValues = [undefined, "", "  ", "0", "1", " 2 ", "10", "11", "true", "false", "TRUE", "yes", "-1", "1.5", "01", "1e1", "999", "1000", "20000", " 45000 ", "600000", "600001", "3600000", "3600001", "abc"];

  it("TRUST_PROXY", () => {
    for (const raw of rawValues) {
      expect(served(() => parseTrustProxy(raw)), JSON.stringify(raw)).toEqual(configured("TRUST_PROXY", raw, (c) => c.trustProxy));
    }
  });

  it("HTTP_HEADERS_TIMEOUT_MS and HTTP_REQUEST_TIMEOUT_MS", () => {
    // Each with the other at a bound that keeps the rule between the two out of the way (next test).
    for (const raw of rawValues) {
      expect(served(() => parseMilliseconds("HTTP_HEADERS_TIMEOUT_MS", raw)), JSON.stringify(raw)).toEqual(
        configured("HTTP_HEADERS_TIMEOUT_MS", raw, (c) => c.http.headersTimeoutMs, { HTTP_REQUEST_TIMEOUT_MS: "3600000" }),
      );
      expect(served(() => parseMilliseconds("HTTP_REQUEST_TIMEOUT_MS", raw)), JSON.stringify(raw)).toEqual(
        configured("HTTP_REQUEST_TIMEOUT_MS", raw, (c) => c.http.requestTimeoutMs, { HTTP_HEADERS_TIMEOUT_MS: "1000" }),
      );
    }
  });

  it("both refuse a headers timeout longer than the request's, and list every bad variable", () => {
    const env = { HTTP_HEADERS_TIMEOUT_MS: "30000", HTTP_REQUEST_TIMEOUT_MS: "20000" };
    expect(() => serverSettings(env)).toThrow(/HTTP_REQUEST_TIMEOUT_MS must be at least HTTP_HEADERS_TIMEOUT_MS/);
    expect(() => parseConfig(env)).toThrow(/HTTP_REQUEST_TIMEOUT_MS must be at least HTTP_HEADERS_TIMEOUT_MS/);
    expect(() => serverSettings({ TRUST_PROXY: "yes", HTTP_HEADERS_TIMEOUT_MS: "5" })).toThrow(/2 problems[\s\S]*TRUST_PROXY[\s\S]*HTTP_HEADERS_TIMEOUT_MS/);
    expect(serverSettings({})).toEqual({ trustProxy: 0, headersTimeoutMs: 20_000, requestTimeoutMs: 60_000, keepAliveTimeoutMs: 65_000 });
  });
});

describe("X-Forwarded-For, rewritten from the connection", () => {
  it("is the socket's address alone with no trusted proxy, else the header followed by the socket's address", () => {
    expect(forwardedFor("6.6.6.6", "203.0.113.7", 0)).toBe("203.0.113.7");
    expect(forwardedFor(undefined, "203.0.113.7", 0)).toBe("203.0.113.7");
    expect(forwardedFor("6.6.6.6, 203.0.113.7", "10.0.0.2", 1)).toBe("6.6.6.6, 203.0.113.7, 10.0.0.2");
    expect(forwardedFor(["6.6.6.6", "203.0.113.7"], "10.0.0.2", 1)).toBe("6.6.6.6, 203.0.113.7, 10.0.0.2");
    expect(forwardedFor(" ", "10.0.0.2", 2)).toBe("10.0.0.2");
    // The connection is gone: no entry at all rather than the client's own.
    expect(forwardedFor("6.6.6.6", undefined, 0)).toBeUndefined();
    expect(forwardedFor("6.6.6.6", undefined, 1)).toBeUndefined();
  });

  it("one socket, 70 different headers: one client address for the rate limits (TRUST_PROXY=0)", async () => {
    const { port } = await listen(settings({ trustProxy: 0 }), echoClient(0));
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const seen = new Set<string>();
      for (let i = 0; i < 70; i++) seen.add((await get(port, "/", { "X-Forwarded-For": `198.51.100.${i}` }, agent)).body);
      expect([...seen]).toEqual(["127.0.0.1"]);
    } finally {
      agent.destroy();
    }
  });

  it("behind one proxy (TRUST_PROXY=1), the address the proxy appended, whatever the client wrote before it", async () => {
    const { port } = await listen(settings({ trustProxy: 1 }), echoClient(1));
    // The proxy on 127.0.0.1 appends the client it saw (203.0.113.7) to what the client wrote.
    for (const written of ["", "6.6.6.6, ", "1.1.1.1, 2.2.2.2, "]) {
      expect((await get(port, "/", { "X-Forwarded-For": `${written}203.0.113.7` })).body, written).toBe("203.0.113.7");
    }
    // Reached directly despite TRUST_PROXY=1: the socket's address, the only entry.
    expect((await get(port, "/")).body).toBe("127.0.0.1");
  });
});

describe("slow clients", () => {
  it("headers sent a byte at a time, slower than HTTP_HEADERS_TIMEOUT_MS: 408 and the socket closed before they end", async () => {
    let handled = 0;
    const { port } = await listen(settings({ headersTimeoutMs: 1_000, requestTimeoutMs: 2_000 }), (_req, res) => {
      handled++;
      res.end("served");
    });
    // 400 bytes at one every 100 ms would take 40 s: far beyond the timeout.
    const outcome = await trickle("127.0.0.1", port, { head: "GET / HTTP/1.1\r\nHost: localhost\r\nX-Slow: ", slow: "a".repeat(400), everyMs: 100, tail: "\r\n\r\n" });
    expect(outcome.finished, "the server closed the socket before the client finished its headers").toBe(false);
    expect(outcome.received).toMatch(/^HTTP\/1\.1 408 /);
    expect(handled).toBe(0);
  });

  it("a body sent a byte at a time, slower than HTTP_REQUEST_TIMEOUT_MS: 408 and the socket closed before it ends", async () => {
    let completed = 0;
    const { port } = await listen(settings({ headersTimeoutMs: 1_000, requestTimeoutMs: 2_000 }), (req, res) => {
      req.resume();
      req.on("end", () => {
        completed++;
        res.end("received");
      });
    });
    const body = "b".repeat(400);
    const head = `POST /api/v1/tests HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const outcome = await trickle("127.0.0.1", port, { head, slow: body, everyMs: 100 });
    expect(outcome.finished, "the server closed the socket before the client finished its body").toBe(false);
    expect(outcome.received).toMatch(/^HTTP\/1\.1 408 /);
    expect(completed).toBe(0);
  });

  it("keeps an idle connection 65 s, longer than a load balancer's 60 s", async () => {
    const { port, server } = await listen(settings({}), (_req, res) => res.end("ok"));
    expect(server.keepAliveTimeout).toBe(65_000);
    expect((await get(port, "/")).headers["keep-alive"]).toBe("timeout=65");
  });

  it("does not count a keep-alive connection's idle time against the next request's timeouts", async () => {
    const { port } = await listen(settings({ headersTimeoutMs: 1_000, requestTimeoutMs: 1_000 }), (_req, res) => res.end("ok"));
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const sockets: unknown[] = [];
      const first = await get(port, "/", {}, agent, "GET", sockets);
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      const second = await get(port, "/", {}, agent, "GET", sockets);
      expect([first.status, second.status]).toEqual([200, 200]);
      expect(sockets[1], "the same connection, idle past both timeouts").toBe(sockets[0]);
    } finally {
      agent.destroy();
    }
  });
});

describe("methods no route handler can serve", () => {
  it("under /api: 501 in the error shape, with a request id; elsewhere: handed to Next.js", async () => {
    const handled: string[] = [];
    const { port } = await listen(settings({}), (req, res) => {
      handled.push(`${req.method} ${req.url}`);
      res.end("next");
    });
    for (const path of ["/api/v1/tests", "/api", "/api/health?x=1"]) {
      const answer = await get(port, path, {}, undefined, "PROPFIND");
      expect(answer.status, path).toBe(501);
      expect(answer.headers["content-type"]).toBe("application/json");
      expect(answer.headers["cache-control"]).toBe("no-store");
      expect(JSON.parse(answer.body)).toEqual({
        error: { code: "not_implemented", message: "The method PROPFIND is not supported.", request_id: answer.headers["x-request-id"] },
      });
      expect(answer.headers["x-request-id"]).toMatch(/^req_[0-9A-Z]{26}$/);
      expect(answer.headers["x-ratelimit-limit"], path).toBe(path.startsWith("/api/v1/") ? "120" : undefined);
    }
    expect((await get(port, "/apiary", {}, undefined, "PROPFIND")).body).toBe("next");
    expect((await get(port, "/api/v1/tests", {}, undefined, "DELETE")).body).toBe("next");
    expect(handled).toEqual(["PROPFIND /apiary", "DELETE /api/v1/tests"]);
  });
});

// ---------------------------------------------------------------------------------------

function settings(overrides: Partial<ServerSettings>): ServerSettings {
  return { ...serverSettings({}), ...overrides };
}

/** A stand-in for Next.js: answers the client address the rate limits would key on. */
function echoClient(hops: number) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const headers = new Headers();
    if (typeof req.headers["x-forwarded-for"] === "string") headers.set("x-forwarded-for", req.headers["x-forwarded-for"]);
    res.end(String(clientAddress(headers, hops)));
  };
}

async function listen(options: ServerSettings, handler: (req: IncomingMessage, res: ServerResponse) => unknown) {
  const server = createAppServer(options, handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

/** One request; its socket is pushed onto `sockets` when given. */
function get(port: number, path: string, headers: Record<string, string> = {}, agent?: http.Agent, method = "GET", sockets?: unknown[]) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const request = http.request({ host: "127.0.0.1", port, path, method, headers, agent }, (response) => {
      sockets?.push(request.socket);
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    request.on("error", reject);
    request.end();
  });
}
