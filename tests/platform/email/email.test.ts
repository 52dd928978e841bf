import { toPlainText } from "@react-email/components";
import { createElement } from "react";
import { eq, inArray } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { emailMessages } from "@/db/schema";
import { claimDueEmails, deliverEmails } from "@/lib/platform/pipeline/channels/email/deliver";
import { SignInEmail } from "@/lib/platform/email/templates/sign-in";
import { EmbeddedWorker } from "@/lib/platform/pipeline/executors/worker";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { startFakeResend, type FakeResend } from "../../helpers/fake-resend";
import { waitUntil } from "../../helpers/delivery";
import { type OutgoingEmail, queueEmail, queueEmails } from "@/lib/platform/pipeline/channels/email/queue";
import { stepRegistry } from "@/lib/registry/steps";

let database: TestDatabase;
let fake: FakeResend;
const workers: EmbeddedWorker[] = [];

async function startWorker(): Promise<EmbeddedWorker> {
  const worker = new EmbeddedWorker(database, { steps: stepRegistry, concurrency: 4, pollMs: 50 });
  workers.push(worker);
  await worker.start();
  return worker;
}

let counter = 0;
function mail(): OutgoingEmail {
  counter += 1;
  const url = `http://localhost:3000/api/auth/callback/resend?token=t${counter}`;
  return {
    kind: "sign_in",
    to: `reader${counter}-${Date.now()}@example.test`,
    subject: `Sign in to Certify (${counter})`,
    react: createElement(SignInEmail, { url, host: "localhost:3000" }),
    links: [url],
  };
}

async function rowsOf(ids: string[]) {
  const rows = await database.db.select().from(emailMessages).where(inArray(emailMessages.id, ids));
  return ids.map((id) => rows.find((row) => row.id === id)!);
}

async function allSent(ids: string[], timeoutMs = 10_000) {
  return waitUntil(
    `${ids.length} e-mail(s) sent`,
    async () => {
      const rows = await rowsOf(ids);
      return rows.every((row) => row.status === "sent") ? rows : undefined;
    },
    timeoutMs,
  );
}

beforeAll(async () => {
  // Batching and idempotency here; the pace and Resend's limit are in email-provider.test.ts.
  fake = await startFakeResend({ ratePerSecond: Infinity });
  // Read by the Resend SDK when the app first creates its client, and by emailTransport() at queue time.
  vi.stubEnv("RESEND_API_KEY", "re_test");
  vi.stubEnv("RESEND_BASE_URL", fake.url);
  vi.stubEnv("EMAIL_RATE_PER_SECOND", "100");
  vi.stubEnv("EMAIL_RETRY_BASE_MS", "1000");
  vi.stubEnv("EMAIL_RETRY_MAX_MS", "2000");
  vi.stubEnv("RESEND_TIMEOUT_MS", "3000");
  vi.stubEnv("WORKER_LEASE_MS", "10000");
  database = await createTestDatabase();
});

afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.stop()));
});

afterAll(async () => {
  await fake?.close();
  await database?.drop();
  vi.unstubAllEnvs();
});

describe("e-mail through Resend (a local fake of its API)", () => {
  it("sends three e-mails queued in one transaction as ONE batch call, and records the provider ids", async () => {
    const outgoing = [mail(), mail(), mail()];
    const queued = await database.db.transaction((tx) => queueEmails(tx, outgoing));
    expect(queued.map((row) => [row.transport, row.status])).toEqual(Array(3).fill(["resend", "queued"]));
    const before = fake.calls.length;

    await startWorker();
    const ids = queued.map((row) => row.id);
    const rows = await allSent(ids);

    const calls = fake.calls.slice(before);
    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(call).toMatchObject({ method: "POST", path: "/emails/batch", status: 200 });
    expect(call.headers.authorization).toBe("Bearer re_test");
    expect(call.headers["content-type"]).toMatch(/^application\/json/);
    // The key is the batch's own, stored on its rows; the batch lists its messages by id.
    expect(rows.map((row) => row.batchKey)).toEqual(Array(3).fill(call.headers["idempotency-key"]));
    expect(call.headers["idempotency-key"]).toMatch(/^batch_[0-9A-Z]{26}$/);
    const keyIds = [...ids].sort();
    expect(call.body).toHaveLength(3);
    call.body.forEach((message: any, position: number) => {
      const index = ids.indexOf(keyIds[position]);
      expect(message.to).toBe(outgoing[index].to);
      expect(message.subject).toBe(outgoing[index].subject);
      expect(message.from).toBe(queued[index].from);
      // The text part is generated from the HTML, with the link in it.
      expect(message.text).toBe(queued[index].text);
      expect(message.text).toBe(toPlainText(message.html));
      expect(message.text).toContain("SIGN IN TO CERTIFY");
      expect(message.text).toContain(outgoing[index].links![0]);
      expect(message.html).toMatch(/<html/i);
      expect(message.html).toContain("Sign in to Certify");
      expect(message.html).toContain(outgoing[index].links![0].replaceAll("&", "&amp;"));
      // Each row keeps the provider id Resend gave its message.
      expect(rows[index]).toMatchObject({ status: "sent", attempts: 1, providerId: call.ids[position], lockedUntil: null });
      expect(rows[index].sentAt).toBeInstanceOf(Date);
    });
  });

  it("sends a single e-mail with POST /emails and its id as the Idempotency-Key", async () => {
    const row = await database.db.transaction((tx) => queueEmail(tx, mail()));
    const before = fake.calls.length;
    await startWorker();
    const [sent] = await allSent([row.id]);
    const calls = fake.calls.slice(before);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ method: "POST", path: "/emails", status: 200 });
    expect(calls[0].headers["idempotency-key"]).toBe(row.id);
    expect(calls[0].body).toMatchObject({ to: row.to, subject: row.subject, text: row.text });
    expect(calls[0].body.html).toContain("Sign in to Certify");
    expect(sent).toMatchObject({ status: "sent", providerId: calls[0].ids[0] });
  });

  it("keeps messages queued when Resend fails (attempts, last_error, later due) and sends them on a later try", async () => {
    fake.failNext(2);
    const queued = await database.db.transaction((tx) => queueEmails(tx, [mail(), mail()]));
    const ids = queued.map((row) => row.id);
    const before = fake.calls.length;

    // First try, by hand, to look at the state in between.
    const claimed = await claimDueEmails(database.db, 100);
    expect(claimed.sort()).toEqual([...ids].sort());
    expect(await deliverEmails(database.db, claimed)).toMatchObject({ sent: 0, failed: 2, refused: 0, dropped: 0, retryAfterMs: expect.any(Number) });
    for (const row of await rowsOf(ids)) {
      expect(row).toMatchObject({ status: "queued", attempts: 1, lockedUntil: null, providerId: null, sentAt: null });
      expect(row.lastError).toMatch(/fake outage/);
    }
    // emailRetryDelayMs(1): between half and all of EMAIL_RETRY_BASE_MS (1 s): not due yet.
    const dueIn = await database.query<{ ms: number }>(
      "select (extract(epoch from next_attempt_at - now()) * 1000)::float8 as ms from email_messages where id = any($1)",
      [ids],
    );
    for (const { ms } of dueIn) expect(Number(ms)).toBeGreaterThan(400);
    expect(await claimDueEmails(database.db, 100)).toEqual([]);

    // The worker retries when they come due: one more failure, then success. Nothing lost.
    await startWorker();
    const rows = await allSent(ids, 15_000);
    const calls = fake.calls.slice(before);
    expect(calls.map((call) => call.status)).toEqual([500, 500, 200]);
    for (const call of calls) {
      expect(call.path).toBe("/emails/batch");
      expect(call.headers["idempotency-key"]).toBe(rows[0].batchKey);
    }
    // A retried send is only safe if it carries the same key as the try it repeats.
    expect(new Set(calls.map((call) => call.headers["idempotency-key"])).size).toBe(1);
    // Exponential backoff with jitter: at least half of 1 s, then at least half of 2 s.
    expect(calls[1].at - calls[0].at).toBeGreaterThanOrEqual(500 - 50);
    expect(calls[2].at - calls[1].at).toBeGreaterThanOrEqual(1_000 - 50);
    const keyIds = [...ids].sort();
    rows.forEach((row) => expect(row).toMatchObject({ status: "sent", attempts: 3, providerId: calls[2].ids[keyIds.indexOf(row.id)] }));
  }, 30_000);

  it("does not send twice when Resend sent the batch but the answer was lost: the retry replays the same key", async () => {
    fake.loseNextResponses(1);
    const queued = await database.db.transaction((tx) => queueEmails(tx, [mail(), mail()]));
    const ids = queued.map((row) => row.id);
    const before = fake.calls.length;
    expect(await deliverEmails(database.db, await claimDueEmails(database.db, 100))).toMatchObject({ sent: 0, failed: 2 });
    expect(fake.sent.filter((m) => queued.some((row) => row.to === m.to))).toHaveLength(2);

    await startWorker();
    const rows = await allSent(ids, 10_000);
    const calls = fake.calls.slice(before);
    expect(calls.map((call) => [call.status, call.replayed])).toEqual([
      [500, false],
      [200, true],
    ]);
    // Each recipient got exactly one e-mail, and the rows keep the ids of that one send.
    for (const row of rows) {
      const received = fake.sent.filter((m) => m.to === row.to);
      expect(received).toHaveLength(1);
      expect(row.providerId).toBe(received[0].id);
    }
  }, 20_000);

  it("does not send twice when the retry of a batch whose answer was lost goes out together with newer mail", async () => {
    fake.loseNextResponses(1);
    const first = await database.db.transaction((tx) => queueEmails(tx, [mail(), mail(), mail()]));
    expect(await deliverEmails(database.db, await claimDueEmails(database.db, 100))).toMatchObject({ sent: 0, failed: 3 });
    // Another e-mail is queued while the first batch waits for its retry (say the worker was
    // restarting); once the batch is due again, one claim takes all four.
    const later = await database.db.transaction((tx) => queueEmail(tx, mail()));
    await waitUntil(
      "the failed batch to come due again",
      async () => (await database.query<{ due: number }>("select count(*)::int as due from email_messages where status = 'queued' and next_attempt_at <= now()"))[0].due === 4,
      5_000,
    );
    const claimed = await claimDueEmails(database.db, 100);
    expect(claimed.sort()).toEqual([...first.map((row) => row.id), later.id].sort());
    await deliverEmails(database.db, claimed);

    const rows = await rowsOf([...first.map((row) => row.id), later.id]);
    expect(rows.map((row) => row.status)).toEqual(["sent", "sent", "sent", "sent"]);
    // Resend already sent the first three once; retrying them under a new key sends them again.
    const perRecipient = rows.map((row) => fake.sent.filter((m) => m.to === row.to).length);
    expect(perRecipient, "e-mails Resend sent per recipient (first three were already sent once)").toEqual([1, 1, 1, 1]);
  }, 20_000);

  it("keeps retrying within the time budget and drops a batch only once it was queued longer ago than EMAIL_RETRY_HOURS", async () => {
    // Many failed tries, but queued an hour ago: still queued (a 24-hour budget, not a count).
    const recent = await database.db.transaction((tx) => queueEmail(tx, mail()));
    await database.query("update email_messages set attempts = 40, created_at = now() - interval '1 hour' where id = $1", [recent.id]);
    fake.failNext(1);
    expect(await deliverEmails(database.db, await claimDueEmails(database.db, 100))).toMatchObject({ sent: 0, failed: 1, dropped: 0 });
    expect((await rowsOf([recent.id]))[0]).toMatchObject({ status: "queued", attempts: 41 });

    // Queued 25 hours ago: this failure is its last; dropped with the reason.
    const old = await database.db.transaction((tx) => queueEmail(tx, mail()));
    await database.query("update email_messages set created_at = now() - interval '25 hours' where id = $1", [old.id]);
    await database.query("update email_messages set status = 'sent' where id = $1", [recent.id]);
    fake.failNext(1);
    const claimed = await claimDueEmails(database.db, 100);
    expect(claimed).toEqual([old.id]);
    expect(await deliverEmails(database.db, claimed)).toMatchObject({ sent: 0, failed: 0, dropped: 1 });
    const [dropped] = await rowsOf([old.id]);
    expect(dropped).toMatchObject({ status: "dropped", attempts: 1 });
    expect(dropped.lastError).toMatch(/^500 internal_server_error: fake outage/);
    expect(await claimDueEmails(database.db, 100)).toEqual([]);
  });

  it("sends nothing and keeps no row when the queueing transaction rolls back", async () => {
    await startWorker();
    const email = mail();
    const before = fake.calls.length;
    await expect(
      database.db.transaction(async (tx) => {
        await queueEmail(tx, email);
        throw new Error("sign-up failed");
      }),
    ).rejects.toThrow("sign-up failed");
    // No row (below), so nothing can be sent; the committed mail after proves the worker was looking.
    expect(fake.calls.length).toBe(before);
    const rows = await database.db.select().from(emailMessages).where(eq(emailMessages.to, email.to));
    expect(rows).toHaveLength(0);
    const [{ queued }] = await database.query<{ queued: number }>("select count(*)::int as queued from email_messages where status = 'queued'");
    expect(queued).toBe(0);

    // The worker was running all along: a committed e-mail is sent, and only that one.
    const committed = await database.db.transaction((tx) => queueEmail(tx, mail()));
    await allSent([committed.id]);
    expect(fake.acceptedFor(committed.to)).toBe(1);
    expect(fake.acceptedFor(email.to)).toBe(0);
  });
});
