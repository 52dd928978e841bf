import os from "node:os";
import { describe, expect, it } from "vitest";
import { hostAddresses, isPrivateAddress } from "./http";

// Strings only: nothing here opens a connection.

/** This machine's own non-loopback interface addresses (e.g. eth0's), as the OS reports them. */
function ownInterfaceAddresses(): string[] {
  return Object.values(os.networkInterfaces())
    .flatMap((entries) => entries ?? [])
    .filter((entry) => !entry.internal)
    .map((entry) => entry.address);
}

describe("isPrivateAddress: only global unicast is a webhook destination", () => {
  const refused = [
    // documentation (RFC 5737, RFC 3849) and benchmarking (RFC 2544, RFC 5180)
    "192.0.2.1",
    "198.51.100.7",
    "203.0.113.9",
    "198.18.0.1",
    "198.19.255.255",
    "2001:db8::1",
    "2001:2::1",
    // other special IPv4 ranges
    "192.0.0.8",
    "192.88.99.1",
    "192.175.48.1",
    "240.0.0.1",
    "255.255.255.255",
    "100.64.0.1",
    // NAT64 (RFC 6052) around loopback and private addresses, and the local-use NAT64 prefix
    "64:ff9b::7f00:1",
    "64:ff9b::127.0.0.1",
    "64:ff9b::a00:1",
    "64:ff9b::a9fe:a9fe",
    "64:ff9b:1::808:808",
    // 6to4 (RFC 3056) around loopback and private addresses
    "2002:7f00:1::",
    "2002:7f00:1::1",
    "2002:a00:1::1",
    "2002:c0a8:101::",
    // IPv4-compatible (deprecated) and SIIT forms
    "::7f00:1",
    "::127.0.0.1",
    "::a00:1",
    "::ffff:0:7f00:1",
    "::ffff:0:a00:1",
    // Teredo whose client (bits inverted) is 127.0.0.1, and whose server is private
    "2001:0:4136:e378:8000:63bf:80ff:fffe",
    "2001:0:a00:1:8000:63bf:f7f7:f7f7",
    // IPv6 outside 2000::/3 or in special blocks
    "100::1",
    "3fff::1",
    "5f00::1",
    "fec0::1",
    "4000::1",
    "fe80::1%eth0",
    "FE80::1",
    "FC00::1",
    "FF02::1",
    // still refused, as before
    "127.0.0.1",
    "10.1.2.3",
    "169.254.169.254",
    "::1",
    "::",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "",
    "example.com",
    "1.2.3",
  ];

  it.each(refused)("%j is refused", (address) => {
    expect(isPrivateAddress(address, new Set())).toBe(true);
  });

  const accepted = [
    "8.8.8.8",
    "1.1.1.1",
    "93.184.215.14",
    "2606:4700::1111",
    "2001:4860:4860::8888",
    "2a00:1450:4001:82b::200e",
    // embedding forms are judged by the IPv4 address they carry
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
    "2002:808:808::1",
    "2001:0:4136:e378:8000:63bf:f7f7:f7f7",
  ];

  it.each(accepted)("%j is a global unicast destination", (address) => {
    expect(isPrivateAddress(address, new Set())).toBe(false);
  });

  it("refuses every address of this host's own interfaces, eth0's included", () => {
    const own = ownInterfaceAddresses();
    expect(own.length, "this machine reports an interface besides loopback").toBeGreaterThan(0);
    for (const address of own) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    // The same addresses in another spelling (IPv6 upper case, IPv4 mapped into IPv6).
    for (const address of own) {
      const spelling = address.includes(":") ? address.toUpperCase() : `::ffff:${address}`;
      expect(isPrivateAddress(spelling), spelling).toBe(true);
    }
  });

  it("refuses the host's own address even when it is global unicast, in any spelling", () => {
    const own = new Set(["8.8.4.4", "2606:4700:0:0:0:0:0:1111"]);
    expect(isPrivateAddress("8.8.4.4", own)).toBe(true);
    expect(isPrivateAddress("::ffff:8.8.4.4", own)).toBe(true);
    expect(isPrivateAddress("64:ff9b::808:404", own)).toBe(true);
    expect(isPrivateAddress("2606:4700::1111", own)).toBe(true);
    expect(isPrivateAddress("2606:4700:0::1111", own)).toBe(true);
    // Not ours: accepted.
    expect(isPrivateAddress("8.8.8.8", own)).toBe(false);
  });

  it("reads the host's addresses normalised, so compressed and full spellings match", () => {
    const own = hostAddresses();
    expect(own.has("127.0.0.1")).toBe(true);
    expect(own.has("0:0:0:0:0:0:0:1")).toBe(true);
  });
});
