/**
 * On-demand benchmark: what the trainer's operations cost as the work grows.
 *
 *   npm run bench:scale                      # sizes 100, 1,000 and 10,000 (a few minutes)
 *   npm run bench:scale -- --sizes 100,1000  # fewer
 *
 * In one process, no HTTP server: the real route handlers (real key check, real zod, real
 * database) are called with a Request as tests/helpers/http.ts `call()` does, the dashboard
 * page's and the steps' domain functions directly, against a throw-away PostgreSQL database
 * bench_scale_<random> (created next to BENCH_DATABASE_URL, migrated and seeded, dropped at the
 * end, also on error, Ctrl-C or the overall timeout). Per size N, in a pro workspace of its own
 * whose plan is given the seats for N (in this process only):
 *
 *   tests (N recipients)   create + queue invitations, the reminder step, resend to all
 *                          (POST /tests/{code}/resend), the test page's data, GET /tests/{code}
 *                          whole and paged, the results CSV (streamed to the end, bytes
 *                          counted), the question analysis;
 *   class (N ≤ 5,000)      invite N students, GET /classes/{id}, a test sent to the class,
 *                          GET /classes/{id}/progress;
 *   competition (≤ 5,000)  the scoreboard (first and last page), the CTFtime feed (every entry).
 *
 * Each operation: time, and peak memory above the baseline taken just before it (RSS and
 * heap used, sampled every 5 ms; with --expose-gc a full GC runs before each baseline). Reads
 * run BENCH_SCALE_REPEAT times (median time, highest peak). Then once more (a write: the same
 * work again) with a full GC before each sample: the peak live heap, what the operation holds
 * rather than garbage not yet collected. See bench/README.md, "bench:scale".
 */
import { randomBytes } from "node:crypto";
import os from "node:os";
import postgres from "postgres";
import { dropBenchDatabase, intEnv, startBenchRun, textTable, writeResults } from "./support";

const ALL_SIZES = [100, 1000, 10_000];
/** Classes and competitions stop at 5,000 (the sizes): 10,000 recipients → 5,000 students or players. */
const groupSize = (n: number) => Math.min(n, 5000);

function sizesFromArgs(): number[] {
  const at = process.argv.indexOf("--sizes");
  const raw = at >= 0 ? process.argv[at + 1] : process.argv.find((arg) => arg.startsWith("--sizes="))?.slice("--sizes=".length);
  if (!raw) return ALL_SIZES;
  const sizes = raw.split(",").map((part) => Number(part.trim()));
  if (sizes.some((n) => !Number.isInteger(n) || n < 1 || n > 10_000)) {
    console.error(`--sizes takes whole numbers from 1 to 10000, comma-separated (got "${raw}")`);
    process.exit(2);
  }
  return [...new Set(sizes)].sort((a, b) => a - b);
}

const config = {
  adminUrl: process.env.BENCH_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres",
  sizes: sizesFromArgs(),
  repeat: intEnv("BENCH_SCALE_REPEAT", 3, 1, 20),
  questions: 20,
  timeoutSeconds: intEnv("BENCH_TIMEOUT_SECONDS", 900),
};

// ---------------------------------------------------------------------------------------------
// Clean-up

let benchDbName: string | undefined;
let closeApp: (() => Promise<void>) | undefined;

const bench = startBenchRun({
  label: "bench scale",
  stopping: "stopping and dropping the bench database…",
  cleanup: async () => {
    await closeApp?.().catch((error) => console.error(`closing the app's database: ${(error as Error).message}`));
    if (benchDbName) await dropBenchDatabase(config.adminUrl, benchDbName);
  },
  timeoutSeconds: config.timeoutSeconds,
});

async function createScaleDatabase(adminUrl: string): Promise<{ name: string; url: string }> {
  const name = `bench_scale_${randomBytes(5).toString("hex")}`;
  benchDbName = name;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {}, connect_timeout: 10 });
  try {
    await admin.unsafe(`create database "${name}"`);
  } finally {
    await admin.end({ timeout: 2 });
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
}

// ---------------------------------------------------------------------------------------------
// Measuring

type Measure = { ms: number; rssMb: number; heapMb: number; liveMb: number | null; note: string };
type Row = { operation: string; n: number } & Measure;
const rows: Row[] = [];

const gc = (globalThis as { gc?: () => void }).gc;
const mb = (bytes: number) => bytes / (1024 * 1024);

/**
 * Runs `fn` once: its time and the peak RSS and heap above the baseline just before it.
 * `live`: a full GC before each sample (every 10 ms), so the heap's peak is what `fn` holds,
 * not garbage not yet collected; that slows `fn` down, so its time is not used.
 */
async function once<T>(fn: () => Promise<T>, live = false): Promise<{ value: T; ms: number; rssMb: number; heapMb: number }> {
  gc?.();
  const base = process.memoryUsage();
  let peakRss = base.rss;
  let peakHeap = base.heapUsed;
  const sample = () => {
    if (live) gc?.();
    const now = process.memoryUsage();
    peakRss = Math.max(peakRss, now.rss);
    peakHeap = Math.max(peakHeap, now.heapUsed);
  };
  const timer = setInterval(sample, live ? 10 : 5);
  const started = performance.now();
  let value: T;
  try {
    value = await fn();
  } finally {
    clearInterval(timer);
  }
  const ms = performance.now() - started;
  sample();
  return { value, ms, rssMb: mb(peakRss - base.rss), heapMb: mb(peakHeap - base.heapUsed) };
}

/** The peak live heap of one more run of the operation (`again`: the same work once more), when GC is exposed. */
async function liveHeap(again: () => Promise<unknown>): Promise<number | null> {
  if (!gc) return null;
  return (await once(again, true)).heapMb;
}

/**
 * A write, measured once; `again` does the same work once more (another test, the reminder
 * reset and sent again…) for the live heap. `note(value)` says what it did.
 */
async function write<T>(operation: string, n: number, fn: () => Promise<T>, again: () => Promise<unknown>, note: (value: T) => string = () => ""): Promise<T> {
  const result = await once(fn);
  rows.push({ operation, n, ms: result.ms, rssMb: result.rssMb, heapMb: result.heapMb, liveMb: await liveHeap(again), note: note(result.value) });
  return result.value;
}

/** A read, measured `config.repeat` times (the median time, the highest peaks), then once more for the live heap. */
async function read<T>(operation: string, n: number, fn: () => Promise<T>, note: (value: T) => string = () => ""): Promise<T> {
  const runs = [];
  for (let i = 0; i < config.repeat; i++) runs.push(await once(fn));
  const times = runs.map((run) => run.ms).sort((a, b) => a - b);
  rows.push({
    operation,
    n,
    ms: times[Math.floor((times.length - 1) / 2)],
    rssMb: Math.max(...runs.map((run) => run.rssMb)),
    heapMb: Math.max(...runs.map((run) => run.heapMb)),
    liveMb: await liveHeap(fn),
    note: note(runs[runs.length - 1].value),
  });
  return runs[runs.length - 1].value;
}

// ---------------------------------------------------------------------------------------------
// Calling the route handlers as Next.js would (tests/helpers/http.ts `call()`).

type Handler = (req: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

async function call<T = unknown>(handler: Handler, path: string, key: string, options: { method?: string; params?: Record<string, string>; body?: unknown } = {}): Promise<T> {
  const headers = new Headers({ "x-api-key": key });
  if (options.body !== undefined) headers.set("content-type", "application/json");
  const response = await handler(
    new Request(`http://127.0.0.1${path}`, { method: options.method ?? "GET", headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) }),
    { params: Promise.resolve(options.params ?? {}) },
  );
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${options.method ?? "GET"} ${path} answered ${response.status}: ${text.slice(0, 400)}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

const people = (prefix: string, from: number, count: number) =>
  Array.from({ length: count }, (_, i) => ({ email: `${prefix}-${String(from + i).padStart(5, "0")}@example.com`, name: `Person ${from + i}` }));

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  process.env.API_LOG = "off";
  const { openDatabase, prepareDatabase, installDatabase, closeDatabase } = await import("@/lib/platform/database");
  const { ensureUserWorkspace, setPlan } = await import("@/lib/platform/workspaces");
  const { plans } = await import("@/lib/platform/workspaces/plans");
  const { createApiKey } = await import("@/lib/platform/keys");
  const { catalogCertificationId } = await import("@/db/seed");
  const { getTest } = await import("@/lib/certification/tests/tests");
  const { sendReminders } = await import("@/lib/certification/tests/follow-up");
  const { testResultsCsvStream } = await import("@/lib/certification/insight/export");
  const { newId } = await import("@/lib/kernel/ids");
  const testsRoute = await import("@/app/api/v1/tests/route");
  const testRoute = await import("@/app/api/v1/tests/[code]/route");
  const recipientsRoute = await import("@/app/api/v1/tests/[code]/recipients/route");
  const resendAllRoute = await import("@/app/api/v1/tests/[code]/resend/route");
  const analysisRoute = await import("@/app/api/v1/tests/[code]/analysis/route");
  const classesRoute = await import("@/app/api/v1/classes/route");
  const classRoute = await import("@/app/api/v1/classes/[id]/route");
  const invitationsRoute = await import("@/app/api/v1/classes/[id]/invitations/route");
  const progressRoute = await import("@/app/api/v1/classes/[id]/progress/route");
  const scoreboardRoute = await import("@/app/api/v1/ctfs/[ctf_id]/scoreboard/route");
  const ctftimeRoute = await import("@/app/api/v1/ctfs/[ctf_id]/scoreboard/ctftime/route");

  const { name, url } = await createScaleDatabase(config.adminUrl);
  const database = await openDatabase({ url });
  closeApp = closeDatabase;
  installDatabase(database);
  const t = performance.now();
  await prepareDatabase(database);
  const [{ version }] = await database.query<{ version: string }>("select current_setting('server_version') as version");
  console.log(`created database ${name} (PostgreSQL ${version}), migrated and seeded in ${(performance.now() - t).toFixed(0)} ms`);
  console.log(
    `sizes ${config.sizes.join(", ")} (classes and competitions: ${config.sizes.map(groupSize).join(", ")}); reads × ${config.repeat} (median); ` +
      `${os.cpus().length} CPUs, Node ${process.version}; GC before each operation: ${gc ? "yes" : "no (run with node --expose-gc)"}\n`,
  );

  // The plan's seats for the largest size, in this process only (pro: 1,000 recipients per test, 1,000 students).
  const largest = Math.max(...config.sizes);
  plans.pro.seats = Math.max(plans.pro.seats, largest);
  plans.pro.students = Math.max(plans.pro.students, groupSize(largest));

  const certificationId = await catalogCertificationId(database.db, "aws-clf-c02");
  if (!certificationId) throw new Error("the catalog seed has no aws-clf-c02");
  const domainIds = (await database.query<{ id: number }>("select id from domains where certification_id = $1 order by position", [certificationId])).map((row) => row.id);

  for (const n of config.sizes) {
    if (bench.exiting) return;
    console.log(`— size ${n}`);
    // A workspace (and key) per size: the per-key rate limits never mix sizes.
    const { workspace } = await ensureUserWorkspace(database.db, `bench-scale-${n}@example.com`);
    await setPlan(database.db, workspace.id, "pro");
    const { secret } = await createApiKey(database.db, workspace.id, { name: "bench" });

    // ---- A test of n recipients.
    const createTest = async () => {
      const test = await call<{ code: string }>(testsRoute.POST, "/api/v1/tests", secret, {
        method: "POST",
        body: { certification_id: certificationId, domains: domainIds, questions: config.questions, reminder_after_hours: 1, recipients: people(`r${n}`, 0, Math.min(n, 1000)) },
      });
      // POST /tests takes 1,000 recipients per request: the rest in POST /tests/{code}/recipients of 1,000.
      for (let from = 1000; from < n; from += 1000) {
        await call(recipientsRoute.POST, `/api/v1/tests/${test.code}/recipients`, secret, {
          method: "POST",
          params: { code: test.code },
          body: { recipients: people(`r${n}`, from, Math.min(1000, n - from)) },
        });
      }
      return test;
    };
    const created = await write("create test + queue invitations", n, createTest, createTest, () => `${Math.ceil(n / 1000)} request(s)`);
    const code = created.code;
    const [{ id: testId }] = await database.query<{ id: number }>("select id from tests where code = $1", [code]);

    // Resend to all: the reminder step e-mails every recipient not completed (all of them, here).
    await database.query("update recipients set sent_at = now() - interval '2 hours' where test_id = $1", [testId]);
    const remindAll = () => sendReminders(database.db, testId);
    const remindAgain = async () => {
      await database.query("update recipients set reminded_at = null where test_id = $1", [testId]);
      return remindAll();
    };
    await write("reminder step (every recipient not completed)", n, remindAll, remindAgain, (count) => `${count} e-mails queued`);

    // Resend to all: the trainer's one action (POST /tests/{code}/resend), every recipient not completed (all of them, here).
    const resendAll = () => call<{ queued: number }>(resendAllRoute.POST, `/api/v1/tests/${code}/resend`, secret, { method: "POST", params: { code }, body: {} });
    const resendAllAgain = async () => {
      // Its 10-minute window per test, emptied for the second run (the live heap).
      await database.query("delete from rate_limit_buckets where key = $1", [`tests:resend-all:${testId}`]);
      return resendAll();
    };
    await write("resend to all (POST /tests/{code}/resend)", n, resendAll, resendAllAgain, (result) => `${result.queued} e-mails queued`);

    await seedResults(database, testId);

    await read("test page data (page 1 of 50)", n, () => getTest(database.db, workspace.id, code, { page: 1, per_page: 50 }));
    await read("GET /tests/{code} (every recipient)", n, () => call<{ recipients: unknown[] }>(testRoute.GET, `/api/v1/tests/${code}`, secret, { params: { code } }), (test) => `${test.recipients.length} recipients`);
    await read("GET /tests/{code}?recipients_per_page=100", n, () =>
      call(testRoute.GET, `/api/v1/tests/${code}?recipients_page=${Math.max(1, Math.ceil(n / 200))}&recipients_per_page=100`, secret, { params: { code } }),
    );
    await read(
      "results CSV (streamed)",
      n,
      async () => {
        const { stream } = await testResultsCsvStream(database.db, workspace.id, code);
        let bytes = 0;
        const reader = stream.getReader();
        for (let part = await reader.read(); !part.done; part = await reader.read()) bytes += part.value.byteLength;
        return bytes;
      },
      (bytes) => `${(bytes / 1024).toFixed(0)} KiB`,
    );
    await read("GET /tests/{code}/analysis", n, () => call(analysisRoute.GET, `/api/v1/tests/${code}/analysis`, secret, { params: { code } }));

    // ---- A class of groupSize(n) students.
    const students = groupSize(n);
    // The same addresses for the second class (again): the plan counts each student once.
    const createClass = async () => {
      const klass = await call<{ id: number }>(classesRoute.POST, "/api/v1/classes", secret, {
        method: "POST",
        body: { name: `Class of ${students}`, certification_id: certificationId, emails: people(`s${n}`, 0, Math.min(students, 1000)) },
      });
      for (let from = 1000; from < students; from += 1000) {
        await call(invitationsRoute.POST, `/api/v1/classes/${klass.id}/invitations`, secret, {
          method: "POST",
          params: { id: String(klass.id) },
          body: { emails: people(`s${n}`, from, Math.min(1000, students - from)) },
        });
      }
      return klass.id;
    };
    const classId = await write("class: create + invite students", students, createClass, createClass, () => `${Math.ceil(students / 1000)} request(s)`);
    await database.query("update class_invitations set status = 'joined', joined_at = now() where class_id = $1", [classId]);
    const id = String(classId);
    await read("GET /classes/{id}", students, () => call(classRoute.GET, `/api/v1/classes/${id}`, secret, { params: { id } }));
    const sendToClass = () =>
      call<{ code: string }>(testsRoute.POST, "/api/v1/tests", secret, { method: "POST", body: { certification_id: certificationId, domains: domainIds, questions: config.questions, class_id: classId } });
    const classTest = await write("class: POST /tests to the class", students, sendToClass, async () => {
      // Again, then gone: the class's progress below counts one test.
      const extra = await sendToClass();
      await database.query("delete from tests where code = $1", [extra.code]);
    });
    const [{ id: classTestId }] = await database.query<{ id: number }>("select id from tests where code = $1", [classTest.code]);
    await seedResults(database, classTestId);
    await read("GET /classes/{id}/progress", students, () => call(progressRoute.GET, `/api/v1/classes/${id}/progress`, secret, { params: { id } }));

    // ---- A competition of groupSize(n) players.
    const players = groupSize(n);
    const ctfId = await seedCompetition(database, workspace.id, players, newId);
    await read("scoreboard page 1 (100)", players, () => call(scoreboardRoute.GET, `/api/v1/ctfs/${ctfId}/scoreboard?per_page=100`, secret, { params: { ctf_id: ctfId } }));
    const lastPage = Math.max(1, Math.ceil(players / 100));
    await read("scoreboard last page (100)", players, () =>
      call(scoreboardRoute.GET, `/api/v1/ctfs/${ctfId}/scoreboard?per_page=100&page=${lastPage}`, secret, { params: { ctf_id: ctfId } }),
    );
    await read("CTFtime feed (every entry)", players, () => call(ctftimeRoute.GET, `/api/v1/ctfs/${ctfId}/scoreboard/ctftime`, secret, { params: { ctf_id: ctfId } }));
  }

  report();
}

/**
 * Results for a test's recipients in bulk SQL (as a finished exam leaves them): 80 % completed
 * with a result and an answer to each of their questions, 10 % started with answers, 10 % not
 * started; an integrity record for everyone who started (every third one hid the page).
 */
async function seedResults(database: { query<T>(text: string, params?: unknown[]): Promise<T[]> }, testId: number): Promise<void> {
  const t = performance.now();
  await database.query(
    `insert into answers (recipient_id, question_id, option_index, answered_at)
     select r.id, q.id, (r.id + q.id) % jsonb_array_length(q.options), now()
     from recipients r
     cross join lateral jsonb_array_elements_text(r.question_order) as e(question_id)
     join test_questions q on q.id = e.question_id::int
     where r.test_id = $1 and r.id % 10 <> 0`,
    [testId],
  );
  await database.query(
    `update recipients set status = 'completed', started_at = now() - interval '30 minutes', completed_at = now(), last_activity_at = now(), percent = 60,
       result = jsonb_build_object('percent', 60, 'correct', 12, 'questions', 20, 'passed', null,
         'domains', (select jsonb_agg(jsonb_build_object('id', d.domain_id, 'name', d.name, 'percent', 60, 'correct', 3, 'questions', d.questions) order by d.position)
                     from test_domains d where d.test_id = $1))
     where test_id = $1 and id % 10 not in (0, 1)`,
    [testId],
  );
  await database.query("update recipients set status = 'started', started_at = now(), last_activity_at = now() where test_id = $1 and id % 10 = 1", [testId]);
  await database.query(
    `insert into attempt_integrity (recipient_id, browsers, hidden_count, hidden_ms)
     select id, '["Firefox"]'::jsonb, case when id % 3 = 0 then 1 else 0 end, case when id % 3 = 0 then 4000 else 0 end
     from recipients where test_id = $1 and status <> 'sent'`,
    [testId],
  );
  await database.query("analyze recipients; analyze answers; analyze attempt_integrity; analyze email_messages");
  console.log(`  seeded the results of test ${testId} in ${(performance.now() - t).toFixed(0)} ms`);
}

/** A running built-in competition: 20 challenges, `players` joined players, each with 0–9 solves and every fifth with a hint unlocked. */
async function seedCompetition(
  database: { query<T>(text: string, params?: unknown[]): Promise<T[]> },
  workspaceId: string,
  players: number,
  newId: (prefix: string) => string,
): Promise<string> {
  const t = performance.now();
  const ctfId = newId("ctf");
  await database.query(
    `insert into ctfs (id, workspace_id, title, starts_at, ends_at, status, host, deployed_at, is_public)
     values ($1, $2, 'Scale', now() - interval '1 day', now() + interval '1 day', 'deployed', 'builtin', now(), true)`,
    [ctfId, workspaceId],
  );
  await database.query(
    `insert into challenges (id, ctf_id, workspace_id, title, category, points, flag_hash, flag_sealed, status, hints)
     select $1 || '_ch' || i, $1, $2, 'Challenge ' || i, 'web', 100 + 10 * i, md5($1 || i), 'x', 'published', '[{"text":"a hint","cost":10}]'::jsonb
     from generate_series(1, 20) as i`,
    [ctfId, workspaceId],
  );
  await database.query(
    `insert into members (id, ctf_id, workspace_id, email, token_hash, token_sealed, status, joined_at, display_name)
     select $1 || '_m' || i, $1, $2, 'player' || i || '@example.com', md5($1 || 'm' || i), 'x', 'joined', now() - interval '1 day' + i * interval '1 second', 'Player ' || i
     from generate_series(1, $3::int) as i`,
    [ctfId, workspaceId, players],
  );
  await database.query(
    `insert into solves (id, ctf_id, challenge_id, member_id, points, solved_at)
     select $1 || '_s' || i || '_' || c, $1, $1 || '_ch' || c, $1 || '_m' || i, 100 + 10 * c, now() - interval '20 hours' + (i * 20 + c) * interval '100 milliseconds'
     from generate_series(1, $2::int) as i cross join generate_series(1, 20) as c
     where c <= i % 10`,
    [ctfId, players],
  );
  await database.query(
    `insert into hint_unlocks (id, ctf_id, challenge_id, member_id, hint, cost)
     select $1 || '_h' || i, $1, $1 || '_ch1', $1 || '_m' || i, 1, 10 from generate_series(1, $2::int) as i where i % 5 = 0`,
    [ctfId, players],
  );
  await database.query("analyze members; analyze solves; analyze hint_unlocks");
  console.log(`  seeded competition ${ctfId} (${players} players) in ${(performance.now() - t).toFixed(0)} ms`);
  return ctfId;
}

/** A table per operation: size, time, peaks, and the growth of the time from the size before. */
function report(): void {
  const operations = [...new Set(rows.map((row) => row.operation))];
  const flagged: string[] = [];
  console.log("");
  for (const operation of operations) {
    const mine = rows.filter((row) => row.operation === operation);
    const table = mine.map((row, index) => {
      const before = mine[index - 1];
      let growth = "";
      if (before) {
        const work = row.n / before.n;
        const time = row.ms / before.ms;
        // Linear: 10 × the work → at most 12 × the time (1.2 × the work's factor for other steps).
        const over = time > 1.2 * work;
        if (over) flagged.push(`${operation}: ${before.n} → ${row.n} took ${time.toFixed(1)} × the time`);
        growth = `${time.toFixed(1)} × (work ${work} ×)${over ? " > 1.2 × work: FLAG" : ""}`;
      }
      return [String(row.n), row.ms.toFixed(1), row.rssMb.toFixed(1), row.heapMb.toFixed(1), row.liveMb === null ? "—" : row.liveMb.toFixed(1), growth, row.note];
    });
    console.log(operation);
    console.log(textTable(["N", "ms", "peak RSS MB", "peak heap MB", "peak live heap MB", "time vs the size before", "note"], table, 0));
    console.log("");
  }
  console.log(flagged.length ? `FLAGGED (grows faster than linear):\n  ${flagged.join("\n  ")}` : "no operation grows faster than linear (each ≤ 1.2 × its work's growth).");
  writeResults("scale", new Date(), { sizes: config.sizes, repeat: config.repeat, gc: Boolean(gc), node: process.version, rows, flagged });
}

await bench.finish(main);
