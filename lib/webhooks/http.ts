import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import net from "node:net";

/** A receiver must answer 2xx within this long, in total (connect, send, status line). */
export const DELIVERY_DEADLINE_MS = 8_000;
const EXCERPT_BYTES = 1_024;

export type PostResult = {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  excerpt: string;
  durationMs: number;
};

const blocked = new net.BlockList();
for (const [address, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // CGNAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, cloud metadata
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  blocked.addSubnet(address, prefix, "ipv4");
}
for (const [address, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
  ["fd00:ec2::", 32],
] as const) {
  blocked.addSubnet(address, prefix, "ipv6");
}

/** Whether an address is one a public webhook must never reach (IPv4-mapped IPv6 included). */
export function isPrivateAddress(address: string): boolean {
  const mapped = address.match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i);
  if (mapped) return blocked.check(mapped[1], "ipv4");
  const family = net.isIP(address);
  if (family === 4) return blocked.check(address, "ipv4");
  if (family === 6) return blocked.check(address, "ipv6");
  return true;
}

/** Outside development, private destinations are refused unless the operator allows them. */
export function privateDestinationsAllowed(): boolean {
  if (process.env.WEBHOOK_ALLOW_PRIVATE === "true") return true;
  if (process.env.WEBHOOK_ALLOW_PRIVATE === "false") return false;
  return process.env.NODE_ENV !== "production";
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
export function postOnce(url: string, body: string, headers: Record<string, string>, deadlineMs = DELIVERY_DEADLINE_MS): Promise<PostResult> {
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
