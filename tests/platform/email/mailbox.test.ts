import { createElement } from "react";
import { inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { emailMessages } from "@/db/schema";
import { deliverEmails } from "@/lib/platform/pipeline/channels/email/deliver";
import { SignInEmail } from "@/lib/platform/email/templates/sign-in";
import { EmbeddedWorker } from "@/lib/platform/pipeline/executors/worker";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { captureLogs } from "../../helpers/logs";
import { startFakeResend, type FakeResend } from "../../helpers/fake-resend";
import { waitUntil } from "../../helpers/delivery";
import { queueEmails } from "@/lib/platform/pipeline/channels/email/queue";
import { stepRegistry } from "@/lib/registry/steps";

// A separate file from email.test.ts: the app creates its Resend client once per process.
let database: TestDatabase;
let fake: FakeResend;

beforeAll(async () => {
  fake = await startFakeResend();
  vi.stubEnv("RESEND_API_KEY", "");
  // Were anything to reach for Resend, it would land on the fake and be counted.
  vi.stubEnv("RESEND_BASE_URL", fake.url);
  vi.stubEnv("WORKER_LEASE_MS", "10000");
  database = await createTestDatabase();
});

afterAll(async () => {
  await fake?.close();
  await database?.drop();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe("e-mail without RESEND_API_KEY: the dev mailbox", () => {
  it("records the messages with the mailbox transport and marks them sent, with no HTTP call", async () => {
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    const logs = captureLogs();
    const links = ["http://localhost:3000/api/auth/callback/resend?token=a", "http://localhost:3000/api/auth/callback/resend?token=b"];
    const queued = await database.db.transaction((tx) =>
      queueEmails(
        tx,
        links.map((url, i) => ({
          kind: "sign_in",
          to: `mailbox${i}@example.test`,
          subject: "Sign in to Certify",
          react: createElement(SignInEmail, { url, host: "localhost:3000" }),
          links: [url],
        })),
      ),
    );
    expect(queued.map((row) => [row.transport, row.status])).toEqual([
      ["mailbox", "queued"],
      ["mailbox", "queued"],
    ]);
    expect(queued.every((row) => row.html.includes("Sign in to Certify") && row.text.includes(row.links[0]))).toBe(true);

    const worker = new EmbeddedWorker(database, { steps: stepRegistry, concurrency: 2, pollMs: 50 });
    await worker.start();
    try {
      const ids = queued.map((row) => row.id);
      const rows = await waitUntil("the mailbox to take the messages", async () => {
        const found = await database.db.select().from(emailMessages).where(inArray(emailMessages.id, ids));
        return found.length === 2 && found.every((row) => row.status === "sent") ? found : undefined;
      });
      for (const row of rows) {
        expect(row).toMatchObject({ transport: "mailbox", status: "sent", attempts: 1, providerId: null, lastError: null, lockedUntil: null });
        expect(row.sentAt).toBeInstanceOf(Date);
      }
    } finally {
      await worker.stop();
      logs.restore();
    }

    expect(fake.calls).toHaveLength(0);
    expect(fetchSpy).not.toHaveBeenCalled();
    // The printout a developer clicks: recipient and links, on purpose not redacted.
    const printed = logs.lines.filter((line) => line.context === "mailbox");
    expect(printed).toHaveLength(2);
    expect(printed.find((line) => line.recipient === "mailbox0@example.test")).toMatchObject({
      level: "info",
      kind: "sign_in",
      subject: "Sign in to Certify",
      open: [links[0]],
      msg: "mailbox: sign_in to mailbox0@example.test",
    });
    expect(logs.text()).not.toContain("[redacted]");
  });

  it("in production (no DEV_MAILBOX) the line carries the message id only: no recipient, no link", async () => {
    const link = "http://localhost:3000/api/auth/callback/resend?token=production-secret-link";
    const [queued] = await database.db.transaction((tx) =>
      queueEmails(tx, [{ kind: "sign_in", to: "prod@example.test", subject: "Sign in to Certify", react: createElement(SignInEmail, { url: link, host: "localhost:3000" }), links: [link] }]),
    );
    vi.stubEnv("NODE_ENV", "production");
    vi.stubEnv("AUTH_SECRET", "a-production-secret-of-at-least-32-characters");
    vi.stubEnv("AUTH_URL", "https://certify.example.org");
    const logs = captureLogs();
    try {
      expect(await deliverEmails(database.db, [queued.id])).toMatchObject({ sent: 1 });
    } finally {
      logs.restore();
      vi.stubEnv("NODE_ENV", "test");
      vi.stubEnv("AUTH_SECRET", "");
      vi.stubEnv("AUTH_URL", "");
    }
    expect(logs.lines.filter((line) => line.context === "mailbox")).toEqual([expect.objectContaining({ level: "info", kind: "sign_in", message_id: queued.id })]);
    expect(logs.text()).not.toContain("production-secret-link");
    expect(logs.text()).not.toContain("prod@example.test");
  });
});
