import { createElement } from "react";
import { inArray } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { emailMessages } from "@/db/schema";
import { holdPace, reserveSlot } from "@/lib/platform/pipeline/channels/email/pacing";
import { claimDueEmails, deliverEmails, dropEmails } from "@/lib/platform/pipeline/channels/email/deliver";
import { SignInEmail } from "@/lib/platform/email/templates/sign-in";
import { EmbeddedWorker } from "@/lib/platform/pipeline/executors/worker";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { startFakeResend, type FakeResend } from "../../helpers/fake-resend";
import { waitUntil } from "../../helpers/delivery";
import { type OutgoingEmail, queueEmail, queueEmails } from "@/lib/platform/pipeline/channels/email/queue";
import { stepRegistry } from "@/lib/registry/steps";

/**
 * Resend's limits and failures, against a fake that behaves like it (2 requests/s per key,
 * 429 + Retry-After, validation, idempotency), through the real Resend SDK (RESEND_BASE_URL).
 */

let database: TestDatabase;
let fake: FakeResend;
const workers: EmbeddedWorker[] = [];

let counter = 0;
function mail(to?: string): OutgoingEmail {
  counter += 1;
  const url = `http://localhost:3000/api/auth/callback/resend?token=p${counter}`;
  return {
    kind: "sign_in",
    to: to ?? `provider${counter}-${Date.now()}@example.test`,
    subject: `Sign in to Certify (${counter})`,
    react: createElement(SignInEmail, { url, host: "localhost:3000" }),
    links: [url],
  };
}

async function rowsOf(ids: string[]) {
  const rows = await database.db.select().from(emailMessages).where(inArray(emailMessages.id, ids));
  return ids.map((id) => rows.find((row) => row.id === id)!);
}

async function startWorker(): Promise<EmbeddedWorker> {
  const worker = new EmbeddedWorker(database, { steps: stepRegistry, concurrency: 4, pollMs: 50 });
  workers.push(worker);
  await worker.start();
  return worker;
}

/** A neighbour using the same API key (another app of the same account), straight over HTTP. */
async function neighbourSends(to: string): Promise<number> {
  const response = await fetch(`${fake.url}/emails`, {
    method: "POST",
    headers: { authorization: "Bearer re_test", "content-type": "application/json" },
    body: JSON.stringify({ from: "Other <other@example.test>", to, subject: "hello", text: "hello" }),
  });
  await response.text();
  return response.status;
}

beforeAll(async () => {
  fake = await startFakeResend();
  vi.stubEnv("RESEND_API_KEY", "re_test");
  vi.stubEnv("RESEND_BASE_URL", fake.url);
  vi.stubEnv("WORKER_LEASE_MS", "10000");
  // 7 s: a batch of 100 through the fake provider can take seconds when CI runs both suites side by side on 2 cores (it timed out at 3 s); the lease leaves 1 s beyond it.
  vi.stubEnv("RESEND_TIMEOUT_MS", "7000");
  vi.stubEnv("EMAIL_RETRY_BASE_MS", "300");
  vi.stubEnv("EMAIL_RETRY_MAX_MS", "1000");
  database = await createTestDatabase();
});

beforeEach(async () => {
  // Each test starts with a free pace, a full bucket and an empty queue.
  fake.setRatePerSecond(2);
  fake.rejectSenderDomain(null);
  fake.revokeKey(false);
  await database.query("delete from provider_pacing");
  await database.query("update email_messages set status = 'sent' where status = 'queued'");
});

afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.stop()));
});

afterAll(async () => {
  await fake?.close();
  await database?.drop();
  vi.unstubAllEnvs();
});

describe("the shared pace (provider_pacing)", () => {
  it("hands out one slot per interval to concurrent callers, on the database clock, and refuses slots beyond the wait allowed", async () => {
    const started = Date.now();
    // Each grant as the time its slot comes (this clock): a wait is counted from its own statement, and under load the statements
    // (queued on the row's lock) run hundreds of milliseconds apart, so waits alone drift; the slots themselves do not.
    const slots = await Promise.all(
      Array.from({ length: 5 }, () => reserveSlot(database.db, "pace-test", 1_000, 10_000).then((grant) => (grant.granted ? Date.now() + grant.waitMs : NaN))),
    );
    slots.sort((a, b) => a - b);
    expect(slots.every(Number.isFinite)).toBe(true);
    expect(slots[0] - started).toBeLessThan(1_000);
    // Five distinct slots, one interval apart (less the time an answer takes to come back).
    for (let i = 1; i < slots.length; i++) expect(slots[i] - slots[i - 1]).toBeGreaterThan(800);
    // The next free slot is ~5 s ahead: a caller that may wait 2 s reserves nothing and is told when to come back.
    const refused = await reserveSlot(database.db, "pace-test", 1_000, 2_000);
    expect(refused.granted).toBe(false);
    if (!refused.granted) expect(refused.retryInMs).toBeGreaterThan(3_500);
    const [{ ahead }] = await database.query<{ ahead: number }>(
      "select (extract(epoch from next_slot_at - clock_timestamp()) * 1000)::float8 as ahead from provider_pacing where name = 'pace-test'",
    );
    expect(Number(ahead)).toBeLessThan(5_500);
  });

  it("is pushed, never pulled, by a provider's wait (holdPace)", async () => {
    await holdPace(database.db, "hold-test", 3_000);
    await holdPace(database.db, "hold-test", 1_000);
    const slot = await reserveSlot(database.db, "hold-test", 100, 10_000);
    expect(slot.granted && slot.waitMs).toBeGreaterThan(2_500);
  });

  it("paces two workers (two instances) from one row: 600 e-mails in 6 batches, each accepted once, a 429 never counted as a try", async () => {
    const queued = await database.db.transaction((tx) => queueEmails(tx, Array.from({ length: 600 }, () => mail())));
    const before = fake.calls.length;
    await Promise.all([startWorker(), startWorker()]);
    const rows = await waitUntil(
      "600 e-mails sent",
      async () => {
        const rows = await rowsOf(queued.map((row) => row.id));
        return rows.every((row) => row.status === "sent") ? rows : undefined;
      },
      30_000,
    );
    const calls = fake.calls.slice(before);
    // Six batches of 100 accepted, each once. The pace keeps the average rate; a call that an
    // overloaded event loop (or a network) delays can still meet a 429, which only holds the pace,
    // or time out and be sent again under its key, which the provider answers from its
    // idempotency store (a replay: nothing accepted twice, as acceptedFor checks below).
    expect(calls.filter((call) => call.status === 200 && !call.replayed).map((call) => call.ids.length)).toEqual(Array(6).fill(100));
    expect(calls.every((call) => call.status === 200 || call.status === 429)).toBe(true);
    // A try is a call that carried the message and was not a 429: one, or two when the first
    // call's answer came too late under load and the batch was sent again (a replay, above).
    const tries = (to: string) => calls.filter((call) => call.status !== 429 && [call.body].flat().some((message: { to?: unknown }) => [message?.to].flat().includes(to))).length;
    for (const row of rows) {
      expect(fake.acceptedFor(row.to)).toBe(1);
      expect(row.attempts).toBe(tries(row.to));
      expect(row.attempts).toBeLessThanOrEqual(2);
    }
    const pace = await database.query<{ name: string }>("select name from provider_pacing");
    expect(pace.map((row) => row.name)).toEqual(["resend"]);
    console.log(`two workers, 600 e-mails: ${calls.length} calls, ${calls.filter((call) => call.status === 429).length} × 429`);
  }, 40_000);
});

describe("429 Too Many Requests", () => {
  it("holds every instance's pace past Retry-After, keeps the messages queued without counting a try, then sends them once", async () => {
    // A key limited to 1 request/s, and the app paced to match.
    fake.setRatePerSecond(1);
    vi.stubEnv("EMAIL_RATE_PER_SECOND", "1");
    // Another app on the same key has just spent the second's only request.
    expect(await neighbourSends("neighbour@example.test")).toBe(200);
    const first = await database.db.transaction((tx) => queueEmails(tx, [mail(), mail()]));
    const before = fake.calls.length;

    const result = await deliverEmails(database.db, await claimDueEmails(database.db, 100));
    expect(result).toMatchObject({ sent: 0, failed: 2, refused: 0, dropped: 0, retryAfterMs: 1_000 });
    const [limited] = fake.calls.slice(before);
    expect(limited.status).toBe(429);
    for (const row of await rowsOf(first.map((row) => row.id))) {
      expect(row).toMatchObject({ status: "queued", attempts: 0, lockedUntil: null });
      expect(row.lastError).toMatch(/^429 rate_limit_exceeded/);
    }
    // The shared pace now starts after the provider's wait, for every instance.
    const [{ ahead }] = await database.query<{ ahead: number }>(
      "select (extract(epoch from next_slot_at - clock_timestamp()) * 1000)::float8 as ahead from provider_pacing where name = 'resend'",
    );
    expect(Number(ahead)).toBeGreaterThan(700);

    // Another message, by hand at once: it waits for its slot instead of meeting another 429.
    const other = await database.db.transaction((tx) => queueEmail(tx, mail()));
    expect(await deliverEmails(database.db, [other.id])).toMatchObject({ sent: 1, failed: 0 });
    const otherCall = fake.calls.at(-1)!;
    expect(otherCall.status).toBe(200);
    expect(otherCall.at - limited.at).toBeGreaterThanOrEqual(1_000 - 50);

    // The held batch goes out when due, under its own key, once; its try is the first one counted.
    await startWorker();
    const rows = await waitUntil(
      "the rate-limited batch sent",
      async () => {
        const rows = await rowsOf(first.map((row) => row.id));
        return rows.every((row) => row.status === "sent") ? rows : undefined;
      },
      10_000,
    );
    for (const row of rows) {
      expect(row.attempts).toBe(1);
      expect(fake.acceptedFor(row.to)).toBe(1);
    }
    const batchCalls = fake.calls.slice(before).filter((call) => call.headers["idempotency-key"] === rows[0].batchKey);
    // 429s (the first one, and any a late event loop causes) and one 200: never a 5xx, never a second send.
    expect(batchCalls.map((call) => call.status).slice(0, 1)).toEqual([429]);
    expect(batchCalls.at(-1)!.status).toBe(200);
    expect(batchCalls.slice(0, -1).every((call) => call.status === 429)).toBe(true);
    vi.stubEnv("EMAIL_RATE_PER_SECOND", "2");
  }, 20_000);
});

describe("permanent errors", () => {
  it("marks a batch from an unverified sender domain failed with the reason after ONE call, and never tries it again", async () => {
    fake.rejectSenderDomain("certify.localhost");
    const queued = await database.db.transaction((tx) => queueEmails(tx, [mail(), mail(), mail()]));
    const before = fake.calls.length;
    await startWorker();
    const rows = await waitUntil(
      "the batch failed",
      async () => {
        const rows = await rowsOf(queued.map((row) => row.id));
        return rows.every((row) => row.status !== "queued") ? rows : undefined;
      },
      10_000,
    );
    for (const row of rows) {
      expect(row).toMatchObject({ status: "failed", attempts: 1, sentAt: null, providerId: null });
      expect(row.lastError).toBe(
        "403 validation_error: The certify.localhost domain is not verified. Please, add and verify your domain on https://resend.com/domains",
      );
      expect(fake.acceptedFor(row.to)).toBe(0);
    }
    expect(fake.calls.slice(before).map((call) => call.status)).toEqual([403]);
    // Nothing of it is due again: no blind retry of a request that cannot succeed.
    expect(await claimDueEmails(database.db, 100)).toEqual([]);
  });

  it("marks messages failed on a revoked key (401), after one call", async () => {
    fake.revokeKey(true);
    const row = await database.db.transaction((tx) => queueEmail(tx, mail()));
    const before = fake.calls.length;
    expect(await deliverEmails(database.db, await claimDueEmails(database.db, 100))).toMatchObject({ sent: 0, failed: 0, refused: 1 });
    expect((await rowsOf([row.id]))[0]).toMatchObject({ status: "failed", lastError: "401 invalid_api_key: API key is invalid" });
    expect(fake.calls.slice(before)).toHaveLength(1);
  });

  it("sends 99 of a batch of 100 with one invalid address (permissive validation) and fails that one alone with the reason", async () => {
    const outgoing = Array.from({ length: 100 }, (_, i) => mail(i === 37 ? "not-an-address" : undefined));
    const queued = await database.db.transaction((tx) => queueEmails(tx, outgoing));
    const before = fake.calls.length;
    expect(await deliverEmails(database.db, await claimDueEmails(database.db, 100))).toMatchObject({ sent: 99, failed: 0, refused: 1 });
    const calls = fake.calls.slice(before);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ path: "/emails/batch", status: 200 });
    expect(calls[0].headers["x-batch-validation"]).toBe("permissive");
    const rows = await rowsOf(queued.map((row) => row.id));
    const bad = rows.find((row) => row.to === "not-an-address")!;
    expect(bad).toMatchObject({ status: "failed", providerId: null });
    expect(bad.lastError).toMatch(/^validation_error: Invalid `to` field/);
    const good = rows.filter((row) => row !== bad);
    expect(good.every((row) => row.status === "sent")).toBe(true);
    // Each accepted message keeps its own provider id (the ids come back for the accepted ones only, in order).
    for (const row of good) expect(row.providerId).toBe(fake.sent.find((m) => m.to === row.to)!.id);
    expect(new Set(good.map((row) => row.providerId)).size).toBe(99);
    expect(await claimDueEmails(database.db, 100)).toEqual([]);
  });
});

describe("transient errors", () => {
  it("retries a call that timed out (Resend sent it, the answer came too late) with the same key: sent exactly once", async () => {
    vi.stubEnv("RESEND_TIMEOUT_MS", "400");
    try {
      fake.slowNext(1, 1_200);
      const queued = await database.db.transaction((tx) => queueEmails(tx, [mail(), mail()]));
      const before = fake.calls.length;
      const first = await deliverEmails(database.db, await claimDueEmails(database.db, 100));
      expect(first).toMatchObject({ sent: 0, failed: 2 });
      for (const row of await rowsOf(queued.map((row) => row.id))) {
        expect(row).toMatchObject({ status: "queued", attempts: 1 });
        expect(row.lastError).toBe("timeout: no answer from Resend within 400 ms");
      }
      await startWorker();
      const rows = await waitUntil(
        "the timed-out batch sent",
        async () => {
          const rows = await rowsOf(queued.map((row) => row.id));
          return rows.every((row) => row.status === "sent") ? rows : undefined;
        },
        15_000,
      );
      const calls = fake.calls.slice(before);
      expect(new Set(calls.map((call) => call.headers["idempotency-key"]))).toEqual(new Set([rows[0].batchKey]));
      // Sent by the first call; what came after was answered from the key (or told the first was still running).
      expect(calls.filter((call) => call.status === 200 && !call.replayed)).toHaveLength(1);
      for (const row of rows) {
        expect(fake.acceptedFor(row.to)).toBe(1);
        expect(row.providerId).toBe(fake.sent.find((m) => m.to === row.to)!.id);
      }
    } finally {
      vi.stubEnv("RESEND_TIMEOUT_MS", "7000");
    }
  }, 20_000);

  it("treats a connection closed without an answer as transient (queued, a try counted, the reason kept), then sends once", async () => {
    fake.hangUpNext(1);
    const row = await database.db.transaction((tx) => queueEmail(tx, mail()));
    expect(await deliverEmails(database.db, [row.id])).toMatchObject({ sent: 0, failed: 1, dropped: 0 });
    const [after] = await rowsOf([row.id]);
    expect(after).toMatchObject({ status: "queued", attempts: 1 });
    expect(after.lastError).toMatch(/^no status application_error: Unable to fetch data/);
    await startWorker();
    await waitUntil("the message sent", async () => (await rowsOf([row.id]))[0].status === "sent", 10_000);
    expect(fake.acceptedFor(row.to)).toBe(1);
  });
});

describe("dropEmails (an executor giving up)", () => {
  it("drops the given messages with the reason, and the queued rest of their batches", async () => {
    const queued = await database.db.transaction((tx) => queueEmails(tx, [mail(), mail(), mail()]));
    fake.failNext(1);
    await deliverEmails(database.db, await claimDueEmails(database.db, 100));
    const alone = await database.db.transaction((tx) => queueEmail(tx, mail()));
    expect(await dropEmails(database.db, [queued[0].id], "Inngest run failed")).toBe(3);
    const rows = await rowsOf([...queued.map((row) => row.id), alone.id]);
    expect(rows.map((row) => row.status)).toEqual(["dropped", "dropped", "dropped", "queued"]);
    expect(rows[1].lastError).toBe("Inngest run failed");
  });
});
