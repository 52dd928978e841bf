import { describe, expect, it } from "vitest";
import { addressKey, clientAddress, trustedProxyHops } from "./client-ip";

const headers = (forwardedFor?: string) => new Headers(forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor });

describe("trustedProxyHops (TRUST_PROXY)", () => {
  it("defaults to 0 and reads a count", () => {
    expect(trustedProxyHops(undefined)).toBe(0);
    expect(trustedProxyHops("")).toBe(0);
    expect(trustedProxyHops("false")).toBe(0);
    expect(trustedProxyHops("true")).toBe(1);
    expect(trustedProxyHops("2")).toBe(2);
  });

  it.each(["yes", "-1", "1.5", "99"])("refuses %j with a message naming the variable", (value) => {
    expect(() => trustedProxyHops(value)).toThrow(/TRUST_PROXY/);
  });
});

describe("clientAddress", () => {
  // As scripts/serve.mjs hands requests over, the last entry is always the socket's address.
  it("with no trusted proxy, reads the last entry: the socket's address, all the header holds", () => {
    expect(clientAddress(headers("203.0.113.7"), 0)).toBe("203.0.113.7");
    // Served by something else (a test, `next dev`), whatever came last.
    expect(clientAddress(headers("1.1.1.1, 203.0.113.7"), 0)).toBe("203.0.113.7");
  });

  it("behind N proxies, reads the entry N places left of the socket's: what the outermost proxy saw", () => {
    // client-written, real client (seen by the proxy), the proxy (the socket)
    expect(clientAddress(headers("6.6.6.6, 203.0.113.7, 10.0.0.2"), 1)).toBe("203.0.113.7");
    // client-written, real client (seen by the CDN), CDN (seen by the load balancer), load balancer (the socket)
    expect(clientAddress(headers("6.6.6.6, 203.0.113.7, 198.51.100.1, 10.0.0.2"), 2)).toBe("203.0.113.7");
    // Whatever the client writes to the left changes nothing.
    for (const written of ["", "1.1.1.1, ", "9.9.9.9, 8.8.8.8, "]) {
      expect(clientAddress(headers(`${written}203.0.113.7, 10.0.0.2`), 1), written).toBe("203.0.113.7");
    }
  });

  it("with fewer entries than that, reads the first one, the best there is", () => {
    // TRUST_PROXY=2 but reached through one proxy, or directly.
    expect(clientAddress(headers("203.0.113.7, 10.0.0.2"), 2)).toBe("203.0.113.7");
    expect(clientAddress(headers("10.0.0.2"), 2)).toBe("10.0.0.2");
  });

  it("is null without the header, and without a readable address", () => {
    expect(clientAddress(headers(), 1)).toBeNull();
    expect(clientAddress(headers(""), 1)).toBeNull();
    expect(clientAddress(headers("unknown"), 0)).toBeNull();
    expect(clientAddress(headers("not-an-ip, 10.0.0.2"), 1)).toBeNull();
  });
});

describe("addressKey", () => {
  it("normalises spellings of one IPv4 address", () => {
    for (const spelling of ["203.0.113.7", " 203.0.113.7 ", "203.0.113.7:51234", "::ffff:203.0.113.7", "[::ffff:203.0.113.7]:443"]) {
      expect(addressKey(spelling), spelling).toBe("203.0.113.7");
    }
  });

  it("counts IPv6 per /64, so one subscriber cannot walk through their prefix", () => {
    expect(addressKey("2001:db8:1:2::1")).toBe("2001:db8:1:2::/64");
    expect(addressKey("[2001:db8:1:2:ffff:ffff:ffff:ffff]:443")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:DB8:1:3::1")).toBe("2001:db8:1:3::/64");
    expect(addressKey("fe80::1%eth0")).toBe("fe80::/64");
  });
});
