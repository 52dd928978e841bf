import os from "node:os";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { postOnce } from "@/lib/platform/pipeline/channels/webhook/http";
import { receiverPool, type Receiver } from "../../helpers/receivers";

// postOnce with the guard on (WEBHOOK_ALLOW_PRIVATE=false): destinations that are not global
// unicast, or are this host's own addresses, are refused before any connection is made. The
// one receiver listens on 127.0.0.1 and must see nothing.

const receivers = receiverPool();
let receiver: Receiver;
const body = JSON.stringify({ event: "ctf.deployed", data: {} });
const headers = { "Content-Type": "application/json" };

beforeAll(async () => {
  receiver = await receivers.start({ kind: "ok" }, "ssrf");
});
afterEach(() => {
  vi.unstubAllEnvs();
});
afterAll(() => receivers.closeAll());

/** This machine's own interface addresses except loopback (eth0's and the like). */
function ownAddresses(): string[] {
  return Object.values(os.networkInterfaces())
    .flatMap((entries) => entries ?? [])
    .filter((entry) => !entry.internal && !entry.address.startsWith("fe80:"))
    .map((entry) => entry.address);
}

const literal = (address: string, port: number) => `http://${address.includes(":") ? `[${address}]` : address}:${port}/hook`;

describe("webhook destinations", () => {
  it("refuses the host's own interface addresses, as IP literals, before connecting", async () => {
    vi.stubEnv("WEBHOOK_ALLOW_PRIVATE", "false");
    const own = ownAddresses();
    expect(own.length).toBeGreaterThan(0);
    for (const address of own) {
      const result = await postOnce(literal(address, receiver.port), body, headers);
      expect(result, address).toMatchObject({ ok: false, statusCode: null, excerpt: "" });
      expect(result.error, address).toMatch(/^refused: .*private address/);
    }
  });

  it.each(["64:ff9b::7f00:1", "2002:7f00:1::", "::7f00:1", "::ffff:0:7f00:1", "2001:0:4136:e378:8000:63bf:80ff:fffe", "192.0.2.1", "198.51.100.1", "203.0.113.1", "198.18.0.1", "2001:db8::1"])(
    "refuses %s (loopback wrapped in IPv6, documentation and benchmarking ranges)",
    async (address) => {
      vi.stubEnv("WEBHOOK_ALLOW_PRIVATE", "false");
      const result = await postOnce(literal(address, receiver.port), body, headers);
      expect(result).toMatchObject({ ok: false, statusCode: null, excerpt: "" });
      expect(result.error).toMatch(/^refused: /);
      expect(receiver.connections).toBe(0);
    },
  );
});
