import ipaddr from "ipaddr.js";
import { config, trustProxySchema } from "@/lib/kernel/config/config";

/**
 * How many reverse proxies in front of the app append the address they see to
 * `X-Forwarded-For` (TRUST_PROXY, default 0).
 *
 * `npm start` (scripts/serve.mjs) hands every request to Next.js with the header rewritten
 * from the connection itself, so the last entry is always the address of the socket:
 *
 * - 0 (reached directly): the header is the socket's address alone; whatever the client
 *   wrote is dropped.
 * - N ≥ 1: the header as received, then the socket's address (the innermost proxy). The
 *   last N + 1 entries were written by trusted hands: the socket, and the N proxies that
 *   each appended the address that connected to them. The client is N places left of the
 *   socket's entry; everything further left was written by the client and is ignored.
 *
 * Keep in step with scripts/http-server.mjs (`forwardedFor`); scripts/http-server.test.ts
 * checks that both sides agree.
 */
export function trustedProxyHops(value?: string): number {
  if (value === undefined) return config().trustProxy;
  const parsed = trustProxySchema.safeParse(value);
  if (!parsed.success) throw new Error(`${parsed.error.issues[0]?.message}, not ${JSON.stringify(value)}.`);
  return parsed.data;
}

/**
 * The client's address as a rate-limit key part, or null when none can be read: the entry
 * `hops` places left of the last one (the socket's, see trustedProxyHops). With fewer
 * entries than that, the first one, the best there is (the app was reached by fewer proxies
 * than TRUST_PROXY says). IPv4-mapped IPv6 counts as IPv4; other IPv6 addresses count per
 * /64 (one subscriber's usual allocation), so an attacker cannot walk through their own
 * prefix to dodge the limit.
 *
 * Served by anything but scripts/serve.mjs (`next dev`, a test calling a route handler), the
 * header is whatever the request carried, so the client may choose its own bucket there.
 */
export function clientAddress(headers: Headers, hops = trustedProxyHops()): string | null {
  const entries = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0) return null;
  const entry = entries[Math.max(0, entries.length - 1 - hops)];
  return addressKey(entry);
}

/** `1.2.3.4`, `1.2.3.4:5678`, `[2001:db8::1]:443`, `::ffff:1.2.3.4` → a normalised key part. */
export function addressKey(raw: string): string | null {
  let text = raw.trim();
  const bracketed = text.match(/^\[([^\]]+)\](?::\d+)?$/);
  if (bracketed) text = bracketed[1];
  else if (/^\d+\.\d+\.\d+\.\d+:\d+$/.test(text)) text = text.slice(0, text.lastIndexOf(":"));
  text = text.replace(/%.*$/, ""); // zone id
  if (!ipaddr.isValid(text)) return null;
  const address = ipaddr.process(text);
  if (address.kind() === "ipv4") return address.toString();
  const prefix = ipaddr.IPv6.networkAddressFromCIDR(`${address.toNormalizedString()}/64`);
  return `${prefix.toRFC5952String()}/64`;
}
