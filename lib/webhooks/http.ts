import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import os from "node:os";
import ipaddr from "ipaddr.js";
import { config } from "@/lib/config";

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
 * POSTs the exact bytes once. Success is a 2xx status line within the deadline; a redirect
 * is never followed (3xx is a failure); the deadline covers the whole exchange.
 */
export function postOnce(url: string, body: string, headers: Record<string, string>, deadlineMs = deliveryDeadlineMs()): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
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

    const request = client.request(target, {
      method: "POST",
      headers: { ...headers, "Content-Length": Buffer.byteLength(body).toString() },
      lookup: guard ? guardedLookup : undefined,
      agent: false,
    });
    timer = setTimeout(() => {
      request.destroy();
      finish({ ok: false, statusCode: null, error: `timeout: no 2xx within ${deadlineMs} ms`, excerpt: "" });
    }, deadlineMs);

    request.on("response", (response) => {
      const statusCode = response.statusCode ?? 0;
      const ok = statusCode >= 200 && statusCode < 300;
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () => {
        const excerpt = Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString("utf8");
        finish({ ok, statusCode, error: ok ? null : statusCode >= 300 && statusCode < 400 ? `redirect (${statusCode}) not followed` : `HTTP ${statusCode}`, excerpt });
        response.destroy();
      };
      response.on("data", (chunk: Buffer) => {
        if (size < EXCERPT_BYTES) chunks.push(chunk);
        size += chunk.length;
        if (size >= EXCERPT_BYTES) done();
      });
      response.on("end", done);
      response.on("error", done);
      // The status decides; the excerpt is best effort within a short grace period.
      setTimeout(done, Math.min(500, Math.max(0, deadlineMs - elapsed()))).unref();
    });
    request.on("error", (error) => {
      const message = error instanceof BlockedDestination ? `refused: ${error.message}` : `${(error as NodeJS.ErrnoException).code ?? "error"}: ${error.message}`;
      finish({ ok: false, statusCode: null, error: message, excerpt: "" });
    });
    request.end(body);
  });
}
