import { createElement } from "react";
import { inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { emailMessages } from "@/db/schema";
import { queueEmails } from "@/lib/email/send";
import { SignInEmail, signInText } from "@/lib/email/templates/sign-in";
import { EmbeddedWorker } from "@/lib/jobs/worker";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { startFakeResend, type FakeResend } from "../helpers/fake-resend";
import { waitUntil } from "./support";

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
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    const links = ["http://localhost:3000/api/auth/callback/resend?token=a", "http://localhost:3000/api/auth/callback/resend?token=b"];
    const queued = await database.db.transaction((tx) =>
      queueEmails(
        tx,
        links.map((url, i) => ({
          kind: "sign_in",
          to: `mailbox${i}@example.test`,
          subject: "Sign in to Certify",
          react: createElement(SignInEmail, { url, host: "localhost:3000" }),
          text: signInText(url, "localhost:3000"),
          links: [url],
        })),
      ),
    );
    expect(queued.map((row) => [row.transport, row.status])).toEqual([
      ["mailbox", "queued"],
      ["mailbox", "queued"],
    ]);
    expect(queued.every((row) => row.html.includes("Sign in to Certify") && row.text.includes(row.links[0]))).toBe(true);

    const worker = new EmbeddedWorker(database, { concurrency: 2, pollMs: 50 });
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
    }

    expect(fake.calls).toHaveLength(0);
    expect(fetchSpy).not.toHaveBeenCalled();
    const printed = log.mock.calls.map((args) => args.join(" ")).join("\n");
    for (const link of links) expect(printed).toContain(link);
    expect(printed).toContain("[mailbox] sign_in to mailbox0@example.test");
  });
});
