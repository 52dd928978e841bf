/**
 * On-demand benchmark: creating a test for 1,000 recipients, then e-mailing them.
 *
 *   npx tsx bench/test-creation.ts
 *
 * In one process, no HTTP server: the real `POST /api/v1/tests` route handler
 * (app/api/v1/tests/route.ts) is called with a Request, against a throw-away PostgreSQL
 * database bench_<random> (created next to BENCH_DATABASE_URL, dropped at the end, also on
 * error, Ctrl-C or the overall timeout). E-mail goes to a local fake of the Resend API on
 * 127.0.0.1 (tests/helpers/fake-resend.ts). Each round:
 *   1. times the call to its 201 (key check + rate limit, validation, question draw,
 *      1,000 recipient rows, 1,000 e-mails rendered and queued in the outbox, the JSON answer);
 *   2. runs an EmbeddedWorker (lib/platform/pipeline/executors/worker.ts) until those 1,000 e-mails are sent, and
 *      counts the Resend HTTP calls it took (expected: 10 batch calls of 100).
 * With BENCH_RESEND_RATE=2 the fake Resend allows 2 requests/s per key (429 + Retry-After
 * past that, like Resend) and the app paces itself at that rate (EMAIL_RATE_PER_SECOND);
 * without it (0, the default) the fake has no limit and the app's pace is lifted, so the
 * drain measures the app alone. See bench/README.md.
 */
import { randomBytes } from "node:crypto";
import os from "node:os";
import { startFakeResend, type FakeResend } from "../tests/helpers/fake-resend";
import { createBenchDatabase, dropBenchDatabase, intEnv, sleep, startBenchRun } from "./support";
import { stepRegistry } from "@/lib/registry/steps";

const config = {
  adminUrl: process.env.BENCH_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres",
  /** 1,000 is both the per-request maximum and the pro plan's seats. */
  recipients: intEnv("BENCH_RECIPIENTS", 1000, 1, 1000),
  rounds: intEnv("BENCH_ROUNDS", 3, 1, 10),
  questions: intEnv("BENCH_QUESTIONS", 20, 1, 40),
  timeoutSeconds: intEnv("BENCH_TIMEOUT_SECONDS", 300),
  /** Requests per second the fake Resend allows per key (0: no limit). */
  resendRate: intEnv("BENCH_RESEND_RATE", 0, 0, 1000),
};

// ---------------------------------------------------------------------------------------------
// Clean-up: everything started here is undone once, whatever happens.

let benchDbName: string | undefined;
let fake: FakeResend | undefined;
let closeApp: (() => Promise<void>) | undefined;

async function cleanup(): Promise<void> {
  await closeApp?.().catch((error) => console.error(`closing the app's database: ${(error as Error).message}`));
  if (benchDbName) await dropBenchDatabase(config.adminUrl, benchDbName);
  await fake?.close().catch(() => {});
}

const bench = startBenchRun({
  label: "bench test-creation",
  stopping: "stopping and dropping the bench database…",
  cleanup,
  timeoutSeconds: config.timeoutSeconds,
});

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  // 1. The fake Resend first: the e-mail module must see its address and a key when it loads.
  fake = await startFakeResend({ ratePerSecond: config.resendRate || Infinity });
  // The app's shared pace: Resend's limit when the fake has one, else out of the way.
  process.env.EMAIL_RATE_PER_SECOND ??= String(config.resendRate || 1000);
  process.env.RESEND_API_KEY = "re_bench_fake_key";
  process.env.RESEND_BASE_URL = fake.url;
  process.env.API_LOG = "off";

  // 2. The app's modules, imported only now (so they read the environment above).
  const { openDatabase } = await import("@/lib/platform/database");
  const { prepareDatabase, installDatabase, closeDatabase } = await import("@/lib/platform/database");
  const { ensureUserWorkspace, setPlan } = await import("@/lib/platform/workspaces");
  const { createApiKey } = await import("@/lib/platform/keys");
  const { catalogCertificationId } = await import("@/db/seed");
  const { EmbeddedWorker } = await import("@/lib/platform/pipeline/executors/worker");
  const { emailTransport } = await import("@/lib/kernel/config/email");
  const route = await import("@/app/api/v1/tests/route");
  if (emailTransport() !== "resend") throw new Error("the e-mail transport is not Resend: RESEND_API_KEY was not seen");

  // 3. A fresh database, migrated and seeded, installed as the process's database.
  const { name, url } = await createBenchDatabase(config.adminUrl);
  benchDbName = name;
  const database = await openDatabase({ url });
  closeApp = closeDatabase;
  installDatabase(database);
  let t = performance.now();
  await prepareDatabase(database);
  const [{ version }] = await database.query<{ version: string }>("select current_setting('server_version') as version");
  console.log(`created database ${name} (PostgreSQL ${version}), migrated and seeded in ${ms(performance.now() - t)}`);

  // 4. A pro-plan workspace (1,000 seats) and its key; the certification and its domains.
  const { workspace } = await ensureUserWorkspace(database.db, "bench-trainer@example.com");
  await setPlan(database.db, workspace.id, "pro");
  const { secret } = await createApiKey(database.db, workspace.id, { name: "bench" });
  const certificationId = await catalogCertificationId(database.db, "aws-clf-c02");
  if (!certificationId) throw new Error("the catalog seed has no aws-clf-c02");
  const domainIds = (
    await database.query<{ id: number }>("select id from domains where certification_id = $1 order by position", [certificationId])
  ).map((row) => row.id);

  console.log(
    `POST /api/v1/tests: ${config.recipients} recipients, ${config.questions} questions over ${domainIds.length} domains, send_email true; ` +
      `${config.rounds} rounds; ${os.cpus().length} CPUs, Node ${process.version}; ` +
      `fake Resend ${config.resendRate ? `limited to ${config.resendRate} requests/s per key` : "without a rate limit"}, app paced at ${process.env.EMAIL_RATE_PER_SECOND} requests/s\n`,
  );

  const createTimes: number[] = [];
  const drainTimes: number[] = [];
  for (let round = 1; round <= config.rounds; round++) {
    if (bench.exiting) return;
    const body = JSON.stringify({
      certification_id: certificationId,
      domains: domainIds,
      questions: config.questions,
      recipients: Array.from({ length: config.recipients }, (_, i) => ({
        email: `bench-r${round}-${String(i + 1).padStart(4, "0")}@example.com`,
        name: `Recipient ${i + 1}`,
      })),
    });
    const request = new Request("http://127.0.0.1/api/v1/tests", {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": secret },
      body,
    });

    // (a) Time to the 201, the body read.
    t = performance.now();
    const response = await route.POST(request);
    const answer = (await response.json()) as { code?: string; recipients?: unknown[] };
    const elapsed = performance.now() - t;
    if (response.status !== 201) throw new Error(`round ${round}: answered ${response.status}: ${JSON.stringify(answer).slice(0, 500)}`);
    if (answer.recipients?.length !== config.recipients) throw new Error(`round ${round}: ${answer.recipients?.length} recipients in the answer`);
    createTimes.push(elapsed);
    const [{ queued }] = await database.query<{ queued: number }>("select count(*)::int as queued from email_messages where status = 'queued'");
    console.log(`round ${round}: 201 in ${ms(elapsed)} (test ${answer.code}, ${(body.length / 1024).toFixed(0)} KiB request); ${queued} e-mails queued`);

    // (b) Drain the outbox with the embedded worker; count the Resend calls it takes.
    const callsBefore = fake.calls.length;
    const sentBefore = fake.sent.length;
    const worker = new EmbeddedWorker(database, { steps: stepRegistry, pollMs: 200 });
    t = performance.now();
    await worker.start();
    const deadline = Date.now() + 120_000;
    let left = queued;
    try {
      while (left > 0) {
        if (bench.exiting) return;
        if (Date.now() > deadline) throw new Error(`round ${round}: ${left} e-mails still queued after 120 s`);
        await sleep(25);
        [{ left }] = await database.query<{ left: number }>("select count(*)::int as left from email_messages where status = 'queued'");
      }
    } finally {
      await worker.stop();
    }
    const drained = performance.now() - t;
    drainTimes.push(drained);
    const calls = fake.calls.slice(callsBefore);
    const batchCalls = calls.filter((c) => c.path === "/emails/batch");
    const singleCalls = calls.filter((c) => c.path === "/emails");
    const failedCalls = calls.filter((c) => c.status !== 200);
    const limitedCalls = calls.filter((c) => c.status === 429);
    const sizes = new Map<number, number>();
    for (const call of batchCalls.filter((c) => c.status === 200)) sizes.set(call.ids.length, (sizes.get(call.ids.length) ?? 0) + 1);
    const [{ sent, dropped }] = await database.query<{ sent: number; dropped: number }>(
      "select count(*) filter (where status = 'sent')::int as sent, count(*) filter (where status = 'dropped')::int as dropped from email_messages",
    );
    console.log(
      `         drained in ${ms(drained)}: ${fake.sent.length - sentBefore} e-mails accepted by the fake Resend in ${calls.length} HTTP calls ` +
        `(${batchCalls.length} × POST /emails/batch [${[...sizes].map(([size, n]) => `${n} of ${size}`).join(", ")}], ` +
        `${singleCalls.length} × POST /emails, ${failedCalls.length} failed of which ${limitedCalls.length} × 429); outbox: ${sent} sent, ${dropped} dropped in all`,
    );
    if (batchCalls.filter((c) => c.status === 200).length !== Math.ceil(queued / 100) || singleCalls.length !== 0) {
      console.log(`         NOTE: expected ${Math.ceil(queued / 100)} accepted batch calls of up to 100 and no single calls`);
    }
  }

  // For reading the figures: what rendering every invitation on its own would cost (the
  // app renders the template once per test and fills in each name and link; see
  // lib/platform/email/personalize.ts), measured with the same template.
  const { render } = await import("@react-email/components");
  const { createElement } = await import("react");
  const { TestInvitationEmail } = await import("@/lib/certification/emails/test-invitation");
  t = performance.now();
  await Promise.all(
    Array.from({ length: config.recipients }, (_, i) =>
      render(
        createElement(TestInvitationEmail, {
          locale: "en",
          name: `Recipient ${i + 1}`,
          testName: "AWS Certified Cloud Practitioner test",
          certification: "AWS Certified Cloud Practitioner",
          settings: [],
          questions: config.questions,
          link: `http://localhost:3000/t/${randomBytes(24).toString("base64url")}`,
          trainer: "bench-trainer's workspace",
        }),
      ),
    ),
  );
  const renderTime = performance.now() - t;

  console.log("");
  console.log(`for comparison, one full render per e-mail (what the app avoids) for ${config.recipients} invitations: ${ms(renderTime)}`);
  console.log(`time to 201 (POST /api/v1/tests, ${config.recipients} recipients): min ${ms(Math.min(...createTimes))}, median ${ms(median(createTimes))}`);
  console.log(`time to drain ${config.recipients} e-mails (EmbeddedWorker → fake Resend): min ${ms(Math.min(...drainTimes))}, median ${ms(median(drainTimes))}`);
}

await bench.finish(main);
