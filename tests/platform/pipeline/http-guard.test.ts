import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { parseConfig } from "@/lib/kernel/config/config";
import { publishEvent } from "@/lib/platform/pipeline/channels/webhook/publish";
import { attemptDelivery } from "@/lib/platform/pipeline/channels/webhook/attempts";
import { createWebhook } from "@/lib/platform/webhooks/endpoints";
import { isPrivateAddress, postOnce, privateDestinationsAllowed } from "@/lib/platform/pipeline/channels/webhook/http";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { createTrainer } from "../../helpers/fixtures";
import { receiverPool, type Receiver } from "../../helpers/receivers";
import { deliveriesOf } from "../../helpers/delivery";

// Only strings are checked in the first block; every request below goes to 127.0.0.1 (or
// is refused before it leaves).

describe("isPrivateAddress", () => {
  const privateAddresses = [
    "127.0.0.1",
    "127.255.255.254",
    "10.0.0.1",
    "10.255.255.255",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.0.1",
    "192.168.255.255",
    "169.254.169.254",
    "100.64.0.1",
    "100.127.255.254",
    "0.0.0.0",
    "224.0.0.1",
    "255.255.255.255",
    "::1",
    "::",
    "fc00::1",
    "fd12:3456:789a::1",
    "fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
    "fe80::1",
    "febf::1",
    "fd00:ec2::254",
    "::ffff:127.0.0.1",
    "::FFFF:10.1.2.3",
    "::ffff:169.254.169.254",
    "::ffff:7f00:1",
    "0:0:0:0:0:ffff:7f00:1",
    "not an address",
  ];
  const publicAddresses = [
    "8.8.8.8",
    "1.1.1.1",
    "2606:4700::1111",
    "2001:4860:4860::8888",
    "172.32.0.1",
    "172.15.255.255",
    "100.128.0.1",
    "100.63.255.255",
    "11.0.0.1",
    "192.169.0.1",
    "::ffff:8.8.8.8",
  ];

  it.each(privateAddresses)("%s is private", (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each(publicAddresses)("%s is public", (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });
});

describe("privateDestinationsAllowed", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("refuses private destinations in production unless the operator allows them", () => {
    vi.stubEnv("NODE_ENV", "production");
    // What production requires anyway (lib/kernel/config/config.ts refuses to start without them).
    vi.stubEnv("AUTH_SECRET", "a-production-secret-of-at-least-32-characters");
    vi.stubEnv("AUTH_URL", "https://certify.example");
    vi.stubEnv("WEBHOOK_ALLOW_PRIVATE", "");
    expect(privateDestinationsAllowed()).toBe(false);
    vi.stubEnv("WEBHOOK_ALLOW_PRIVATE", "true");
    expect(privateDestinationsAllowed()).toBe(true);
  });

  it("allows them outside production unless WEBHOOK_ALLOW_PRIVATE=false", () => {
    vi.stubEnv("NODE_ENV", "test");
    vi.stubEnv("WEBHOOK_ALLOW_PRIVATE", "");
    expect(privateDestinationsAllowed()).toBe(true);
    vi.stubEnv("WEBHOOK_ALLOW_PRIVATE", "false");
    expect(privateDestinationsAllowed()).toBe(false);
  });
});

describe("the delivery deadline", () => {
  it("is the spec's 8 s by default and in production; only outside production may a test shorten it", () => {
    const production = { NODE_ENV: "production", AUTH_SECRET: "s".repeat(43), AUTH_URL: "https://certify.example.org" };
    expect(parseConfig({}).webhooks.deadlineMs).toBe(8_000);
    expect(parseConfig(production).webhooks.deadlineMs).toBe(8_000);
    expect(parseConfig({ WEBHOOK_DEADLINE_MS: "800" }).webhooks.deadlineMs).toBe(800);
    expect(() => parseConfig({ ...production, WEBHOOK_DEADLINE_MS: "800" })).toThrow(/WEBHOOK_DEADLINE_MS is for tests only/);
    expect(() => parseConfig({ WEBHOOK_DEADLINE_MS: "8001" })).toThrow(/WEBHOOK_DEADLINE_MS must be a whole number of milliseconds from 100 to 8000/);
  });
});

describe("postOnce", () => {
  const receivers = receiverPool();
  let receiver: Receiver;
  let hang: Receiver;
  const body = JSON.stringify({ data: { ok: true }, delivered_at: 1, event: "ctf.deployed" });
  const headers = { "Content-Type": "application/json", "X-Service-Event": "ctf.deployed" };

  beforeAll(async () => {
    receiver = await receivers.start({ kind: "ok" }, "guarded");
    hang = await receivers.start({ kind: "hang" }, "deadline");
  });

  afterEach(() => {
    vi.unstubAllEnvs();
  });

  afterAll(async () => {
    await receivers.closeAll();
  });

  describe("with the guard on (WEBHOOK_ALLOW_PRIVATE=false)", () => {
    const spellings = (port: number) => [
      `http://127.0.0.1:${port}/hook`,
      `http://localhost:${port}/hook`,
      `http://127.1:${port}/hook`,
      `http://0x7f000001:${port}/hook`,
      `http://2130706433:${port}/hook`,
      `http://0.0.0.0:${port}/hook`,
      `http://[::ffff:127.0.0.1]:${port}/hook`,
      `http://[::1]:${port}/hook`,
    ];

    it("refuses every spelling of a loopback destination before any connection is made", async () => {
      vi.stubEnv("WEBHOOK_ALLOW_PRIVATE", "false");
      for (const url of spellings(receiver.port)) {
        const result = await postOnce(url, body, headers);
        expect(result, url).toMatchObject({ ok: false, statusCode: null });
        expect(result.error, url).toMatch(/^refused: .*private address/);
      }
      expect(receiver.requests).toHaveLength(0);
      expect(receiver.connections).toBe(0);
    });

    it("refuses a host name that resolves to a private address (localhost)", async () => {
      vi.stubEnv("WEBHOOK_ALLOW_PRIVATE", "false");
      const result = await postOnce(`http://localhost:${receiver.port}/hook`, body, headers);
      expect(result.ok).toBe(false);
      expect(result.error).toMatch(/^refused: localhost resolves to a private address/);
      expect(receiver.connections).toBe(0);
    });
  });

  describe("with private destinations allowed", () => {
    it("delivers the exact bytes and headers to 127.0.0.1", async () => {
      vi.stubEnv("WEBHOOK_ALLOW_PRIVATE", "true");
      const before = receiver.requests.length;
      const result = await postOnce(`http://127.0.0.1:${receiver.port}/hook`, body, headers);
      expect(result).toMatchObject({ ok: true, statusCode: 200, error: null, excerpt: "ok" });
      expect(receiver.requests).toHaveLength(before + 1);
      const request = receiver.requests[before];
      expect(request.raw.equals(Buffer.from(body, "utf8"))).toBe(true);
      expect(request.headers["x-service-event"]).toBe("ctf.deployed");
      expect(Number(request.headers["content-length"])).toBe(Buffer.byteLength(body));
    });

    it("delivers to localhost", async () => {
      vi.stubEnv("WEBHOOK_ALLOW_PRIVATE", "true");
      const before = receiver.requests.length;
      const result = await postOnce(`http://localhost:${receiver.port}/hook`, body, headers);
      expect(result).toMatchObject({ ok: true, statusCode: 200 });
      expect(receiver.requests).toHaveLength(before + 1);
    });

    it("gives up at the deadline it is given", async () => {
      vi.stubEnv("WEBHOOK_ALLOW_PRIVATE", "true");
      const result = await postOnce(`http://127.0.0.1:${hang.port}/hook`, body, headers, 300);
      expect(result).toMatchObject({ ok: false, statusCode: null });
      expect(result.error).toMatch(/^timeout/);
      expect(result.durationMs).toBeGreaterThanOrEqual(290);
      expect(result.durationMs).toBeLessThan(1_500);
      await hang.waitForRequests(1, 1_000);
    });

    it("refuses unsupported schemes and invalid URLs without a request", async () => {
      vi.stubEnv("WEBHOOK_ALLOW_PRIVATE", "true");
      expect(await postOnce("ftp://127.0.0.1/hook", body, headers)).toMatchObject({ ok: false, error: "unsupported protocol ftp:" });
      expect(await postOnce("not a url", body, headers)).toMatchObject({ ok: false, error: "invalid URL" });
    });
  });
});

describe("attemptDelivery", () => {
  const receivers = receiverPool();
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
  });

  afterEach(() => {
    vi.unstubAllEnvs();
  });

  afterAll(async () => {
    await receivers.closeAll();
    await database?.drop();
  });

  it("records a delivery to a refused destination as a failed attempt (not thrown, not left to come back forever), with no connection made", async () => {
    vi.stubEnv("WEBHOOK_ALLOW_PRIVATE", "false");
    vi.stubEnv("WEBHOOK_RETRY_STEP_MS", "0");
    const receiver = await receivers.start({ kind: "ok" }, "refused-delivery");
    const trainer = await createTrainer(database.db);
    // The URL is valid for registration; the guard refuses it when it is dialled.
    const hook = await createWebhook(database.db, trainer.workspaceId, { url: `http://127.0.0.1:${receiver.port}/hook`, events: [] }, "api");
    await database.db.transaction((tx) =>
      publishEvent(tx, trainer.workspaceId, "ctf.deleted", { managed_ctf_id: "mctf_x", title: "X", deleted_at: new Date().toISOString() }),
    );
    const [pending] = await deliveriesOf(database.db, trainer.workspaceId, hook.id);

    const outcome = await attemptDelivery(database.db, pending.id);
    expect(outcome).toMatchObject({ outcome: "retry", attempt: 1 });
    const [recorded] = await deliveriesOf(database.db, trainer.workspaceId, hook.id);
    expect(recorded.attempts).toEqual([expect.objectContaining({ number: 1, ok: false, status_code: null, error: expect.stringMatching(/^refused/) })]);
    expect(receiver.connections).toBe(0);
  });

  it("cuts a receiver that never answers off at the configured deadline and records a timeout", async () => {
    const DEADLINE_MS = 400;
    vi.stubEnv("WEBHOOK_DEADLINE_MS", String(DEADLINE_MS));
    vi.stubEnv("WEBHOOK_ALLOW_PRIVATE", "true");
    vi.stubEnv("WEBHOOK_RETRY_STEP_MS", "0");
    const hang = await receivers.start({ kind: "hang" }, "configured-deadline");
    const trainer = await createTrainer(database.db);
    const hook = await createWebhook(database.db, trainer.workspaceId, { url: hang.url, events: [] }, "api");
    await database.db.transaction((tx) =>
      publishEvent(tx, trainer.workspaceId, "ctf.deleted", { managed_ctf_id: "mctf_x", title: "X", deleted_at: new Date().toISOString() }),
    );
    const [pending] = await deliveriesOf(database.db, trainer.workspaceId, hook.id);

    const outcome = await attemptDelivery(database.db, pending.id);
    expect(outcome).toMatchObject({ outcome: "retry", attempt: 1, error: `timeout: no 2xx within ${DEADLINE_MS} ms` });
    await hang.waitForRequests(1, 1_000);
    const [recorded] = await deliveriesOf(database.db, trainer.workspaceId, hook.id);
    expect(recorded.attempts).toEqual([
      expect.objectContaining({ number: 1, state: "completed", ok: false, status_code: null, error: `timeout: no 2xx within ${DEADLINE_MS} ms` }),
    ]);
    expect(recorded.attempts[0].duration_ms).toBeGreaterThanOrEqual(DEADLINE_MS - 10);
    expect(recorded.attempts[0].duration_ms).toBeLessThan(DEADLINE_MS + 1_000);
  });
});
