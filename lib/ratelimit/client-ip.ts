import ipaddr from "ipaddr.js";
import { config, trustProxySchema } from "@/lib/config";

/**
 * How many reverse proxies in front of the app append the address they see to
 * `X-Forwarded-For` (TRUST_PROXY, default 0). Only those entries are trusted: everything to
 * their left was written by the client and is ignored.
 *
 * - 0 (reached directly): Next.js writes the connection's address into the header only when
 *   the request carries none, so the rightmost entry is the client's address — unless the
 *   client sent the header itself, which then picks its own per-IP bucket. The per-address
 *   limits still hold; put the app behind a proxy for per-IP limits that cannot be dodged.
 * - N ≥ 1: the entry N places from the right is the address the outermost proxy saw.
 */
export function trustedProxyHops(value?: string): number {
  if (value === undefined) return config().trustProxy;
  const parsed = trustProxySchema.safeParse(value);
  if (!parsed.success) throw new Error(`${parsed.error.issues[0]?.message}, not ${JSON.stringify(value)}.`);
  return parsed.data;
}

/**
 * The client's address as a rate-limit key part, or null when none can be read. IPv4-mapped
 * IPv6 counts as IPv4; other IPv6 addresses count per /64 (one subscriber's usual
 * allocation), so an attacker cannot walk through their own prefix to dodge the limit.
 */
export function clientAddress(headers: Headers, hops = trustedProxyHops()): string | null {
  const entries = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0) return null;
  const entry = entries[Math.max(0, entries.length - Math.max(hops, 1))];
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
