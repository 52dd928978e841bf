import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import os from "node:os";
import ipaddr from "ipaddr.js";
import { config } from "@/lib/kernel/config/config";

const EXCERPT_BYTES = 1_024;

export type PostResult = {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  excerpt: string;
  durationMs: number;
};

/**
 * Whether a public webhook must never reach this address. Only global unicast is allowed
 * (ipaddr.js `range()` says "unicast"; for IPv6 also inside 2000::/3, the global unicast
 * block): private, loopback, link-local, CGNAT, multicast, documentation, benchmarking and
 * reserved ranges are refused. Forms that carry an IPv4 address (IPv4-mapped, IPv4-
 * compatible, NAT64, 6to4, Teredo) are judged by that address, so `::ffff:7f00:1`,
 * `64:ff9b::7f00:1` and `2002:7f00:1::` are loopback. The host's own addresses are refused
 * too, whatever their range: a receiver there would be this server (or its neighbours on
 * that interface). Anything that is not an address is refused.
 */
export function isPrivateAddress(address: string, ownAddresses: ReadonlySet<string> = hostAddresses()): boolean {
  const parsed = parseAddress(address);
  return !parsed || !isGlobalUnicast(parsed, ownAddresses);
}

type Address = ipaddr.IPv4 | ipaddr.IPv6;

function parseAddress(address: string): Address | null {
  const text = address.replace(/%.*$/, ""); // an IPv6 zone (fe80::1%eth0) names an interface, not a host
  if (!net.isIP(text)) return null;
  try {
    return ipaddr.parse(text);
  } catch {
    return null;
  }
}

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR("2000::/3");

function isGlobalUnicast(address: Address, ownAddresses: ReadonlySet<string>): boolean {
  if (ownAddresses.has(address.toNormalizedString())) return false;
  if (address.kind() === "ipv4") return address.range() === "unicast";
  const v6 = address as ipaddr.IPv6;
  const embedded = embeddedIPv4(v6);
  if (embedded) return embedded.length > 0 && embedded.every((inner) => isGlobalUnicast(inner, ownAddresses));
  return v6.range() === "unicast" && v6.match(GLOBAL_UNICAST_V6);
}

/** The IPv4 addresses an IPv6 address stands for, or null when it embeds none (empty: refuse). */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4[] | null {
  const p = address.parts;
  const v4 = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  switch (address.range()) {
    case "ipv4Mapped": // ::ffff:a.b.c.d
    case "rfc6145": // ::ffff:0:a.b.c.d
      return [v4(p[6], p[7])];
    case "rfc6052": // NAT64: 64:ff9b::a.b.c.d; the local-use 64:ff9b:1::/48 is refused outright
      return p[2] === 0 ? [v4(p[6], p[7])] : [];
    case "6to4": // 2002:aabb:ccdd::
      return [v4(p[1], p[2])];
    case "teredo": // 2001:0:server:server:flags:port:~client:~client
      return [v4(p[2], p[3]), v4(~p[6] & 0xffff, ~p[7] & 0xffff)];
  }
  // IPv4-compatible (deprecated): ::a.b.c.d, including :: and ::1.
  if (p.slice(0, 6).every((part) => part === 0)) return [v4(p[6], p[7])];
  return null;
}

/** Every address of this host's interfaces, normalised (read each time: interfaces change). */
export function hostAddresses(): Set<string> {
  const own = new Set<string>();
  for (const entries of Object.values(os.networkInterfaces())) {
    for (const entry of entries ?? []) {
      const parsed = parseAddress(entry.address);
      if (parsed) own.add(parsed.toNormalizedString());
    }
  }
  return own;
}

/** How long a receiver has to answer 2xx, in total: the spec's 8 s (WEBHOOK_DEADLINE_MS, tests only). */
export function deliveryDeadlineMs(): number {
  return config().webhooks.deadlineMs;
}

/** Outside development, private destinations are refused unless the operator allows them. */
export function privateDestinationsAllowed(): boolean {
  return config().webhooks.allowPrivate;
}

class BlockedDestination extends Error {}

/** DNS lookup that refuses private answers: the check is on the address actually dialled. */
const guardedLookup: net.LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, "", 0);
    const list = addresses as dns.LookupAddress[];
    const bad = list.find((entry) => isPrivateAddress(entry.address));
    if (bad || list.length === 0) {
      return callback(new BlockedDestination(`${hostname} resolves to a private address (${bad?.address ?? "none"})`), "", 0);
    }
    if ((options as dns.LookupOptions).all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
    callback(null, list[0].address, list[0].family);
  });
};

/**
 * Kept-alive connections, one pool per protocol and guard setting: a socket opened without
 * the guard (private destinations allowed) is never handed to a guarded request, since the
 * pool's key (host and port) does not include the lookup that checked the address. A socket
 * idle for 4 s (or for less than the receiver's own `Keep-Alive: timeout` hint, which Node
 * honours) is closed; idle sockets do not keep the process alive.
 */
const IDLE_SOCKET_MS = 4_000;
const agents = {
  guarded: { http: new http.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS, scheduling: "lifo" }), https: new https.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS, scheduling: "lifo" }) },
  open: { http: new http.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS, scheduling: "lifo" }), https: new https.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS, scheduling: "lifo" }) },
};

/** Errors of a kept-alive socket the receiver had closed before our request reached it. */
const STALE_SOCKET = new Set(["ECONNRESET", "EPIPE", "ECONNABORTED"]);

/**
 * POSTs the exact bytes once. Success is a 2xx status line within the deadline; a redirect
 * is never followed (3xx is a failure); the deadline covers the whole exchange.
 *
 * The connection is kept alive for the next POST to the same host only after a 2xx whose
 * body was read to the end; after anything else it is closed, so a retry always starts on a
 * new connection. A kept-alive connection that the receiver had already closed (reset before
 * any answer) is not an attempt: the POST goes out again at once, once, on a new connection.
 */
export function postOnce(url: string, body: string, headers: Record<string, string>, deadlineMs = deliveryDeadlineMs()): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
    let request: http.ClientRequest | undefined;
    // eslint-disable-next-line prefer-const -- finish() may run (early refusals) before the timer exists
    let timer: NodeJS.Timeout | undefined;
    const finish = (result: Omit<PostResult, "durationMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, durationMs: elapsed() });
    };
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return finish({ ok: false, statusCode: null, error: "invalid URL", excerpt: "" });
    }
    const guard = !privateDestinationsAllowed();
    const literal = target.hostname.replace(/^\[|\]$/g, "");
    if (guard && net.isIP(literal) && isPrivateAddress(literal)) {
      return finish({ ok: false, statusCode: null, error: `refused: ${literal} is a private address`, excerpt: "" });
    }
    const client = target.protocol === "https:" ? https : target.protocol === "http:" ? http : undefined;
    if (!client) return finish({ ok: false, statusCode: null, error: `unsupported protocol ${target.protocol}`, excerpt: "" });
    const pool = agents[guard ? "guarded" : "open"][target.protocol === "https:" ? "https" : "http"];

    const send = (fresh: boolean) => {
      const req = client.request(target, {
        method: "POST",
        headers: { ...headers, "Content-Length": Buffer.byteLength(body).toString() },
        lookup: guard ? guardedLookup : undefined,
        // The retry after a stale socket: a connection of its own, closed after the answer.
        agent: fresh ? false : pool,
      });
      request = req;
      let answered = false;

      req.on("response", (response) => {
        answered = true;
        const statusCode = response.statusCode ?? 0;
        const ok = statusCode >= 200 && statusCode < 300;
        // Decided now, before the body ends: Node hands the socket back to the pool at its end.
        if (!ok) req.shouldKeepAlive = false;
        const socket = req.socket;
        const chunks: Buffer[] = [];
        let size = 0;
        const done = (complete: boolean) => {
          clearTimeout(grace);
          const excerpt = Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString("utf8");
          finish({ ok, statusCode, error: ok ? null : statusCode >= 300 && statusCode < 400 ? `redirect (${statusCode}) not followed` : `HTTP ${statusCode}`, excerpt });
          // Only a 2xx read to its end leaves the connection to the pool; anything else closes it.
          if (!(ok && complete)) {
            req.destroy();
            socket?.destroy();
          }
        };
        response.on("data", (chunk: Buffer) => {
          if (size < EXCERPT_BYTES) chunks.push(chunk);
          size += chunk.length;
          if (size >= EXCERPT_BYTES) done(false);
        });
        response.on("end", () => done(true));
        response.on("error", () => done(false));
        // The status decides; the excerpt is best effort within a short grace period.
        const grace = setTimeout(() => done(false), Math.min(500, Math.max(0, deadlineMs - elapsed())));
        grace.unref();
      });
      req.on("error", (error) => {
        const code = (error as NodeJS.ErrnoException).code ?? "";
        if (!settled && !fresh && !answered && req.reusedSocket && STALE_SOCKET.has(code)) return send(true);
        const message = error instanceof BlockedDestination ? `refused: ${error.message}` : `${code || "error"}: ${error.message}`;
        finish({ ok: false, statusCode: null, error: message, excerpt: "" });
      });
      req.end(body);
    };

    timer = setTimeout(() => {
      request?.destroy();
      finish({ ok: false, statusCode: null, error: `timeout: no 2xx within ${deadlineMs} ms`, excerpt: "" });
    }, deadlineMs);
    send(false);
  });
}
