/**
 * On-demand benchmark of the 9:00 exam (issue 13): on the production build over PostgreSQL,
 * one instance, a test for 1,000 recipients × 20 questions taken by 100 concurrent clients —
 * create the test, open every link, save every answer, submit, and wait for every
 * `test.completed` at a local receiver that verifies its signature — with the machine's own
 * floors measured in the same run: the Next.js floor (`GET /api/health`) and a bare node:http
 * + postgres.js server doing the same answer upsert (bench/exam-bare-server.ts).
 *
 *   npm run bench:exam                                  # builds first if .next is missing
 *   npm run bench:exam -- --recipients 200 --clients 50 # a quicker run
 *   npm run bench:exam -- --build                       # rebuild even if .next exists
 *
 * Loopback only. Creates a throw-away database bench_<random> next to BENCH_DATABASE_URL and
 * drops it at the end, whatever happens; stops by itself (overall timeout). See bench/README.md.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { catalogCertificationId } from "@/db/seed";
import { createApiKey } from "@/lib/platform/keys";
import { createTestResultWebhook } from "@/lib/platform/webhooks/endpoints";
import { ensureUserWorkspace, setPlan } from "@/lib/platform/workspaces";
import { verifyCertification } from "@/tests/helpers/receivers";
import { cpuSeconds, createBenchDatabase, dropBenchDatabase, freePort, keepLines, sleep, startBenchRun, startNextServer, stopProcess, textTable, writeResults } from "./support";
import { openDatabase, prepareDatabase } from "@/lib/platform/database";

// ---------------------------------------------------------------------------------------------
// Settings: flags (--recipients 200) win over the environment (BENCH_RECIPIENTS=200).

function setting(flag: string, env: string, fallback: number, min: number, max: number): number {
  const at = process.argv.indexOf(`--${flag}`);
  const raw = at >= 0 ? process.argv[at + 1] : process.env[env];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    console.error(`--${flag} / ${env} must be a whole number from ${min} to ${max} (got "${raw}")`);
    process.exit(2);
  }
  return value;
}

const root = process.cwd();
const config = {
  adminUrl: process.env.BENCH_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres",
  recipients: setting("recipients", "BENCH_RECIPIENTS", 1000, 1, 1000),
  questions: setting("questions", "BENCH_QUESTIONS", 20, 1, 40),
  clients: setting("clients", "BENCH_CLIENTS", 100, 1, 500),
  /** Requests of the Next.js floor (GET /api/health); 0: 5 × recipients, at least 2,000. */
  floorRequests: setting("floor-requests", "BENCH_FLOOR_REQUESTS", 0, 0, 1_000_000),
  /** Recipients of the warm-up test (the whole flow, unmeasured); 0: none. */
  warmup: setting("warmup", "BENCH_WARMUP_RECIPIENTS", 20, 0, 200),
  /** The app's postgres.js pool (DATABASE_POOL_MAX), also the bare server's. */
  poolMax: setting("pool", "BENCH_POOL_MAX", Number(process.env.DATABASE_POOL_MAX ?? 10), 1, 200),
  /** How long to wait for the webhooks after the last submit. */
  webhookSeconds: setting("webhook-seconds", "BENCH_WEBHOOK_SECONDS", 60, 1, 600),
  timeoutSeconds: setting("timeout", "BENCH_TIMEOUT_SECONDS", 1200, 60, 3_600),
  build: process.argv.includes("--build") || process.env.BENCH_BUILD === "1",
  /** Extra Node flags for the server, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof". */
  nodeArgs: (process.env.BENCH_NODE_ARGS ?? "").split(/\s+/).filter(Boolean),
};
const floorRequests = config.floorRequests || Math.max(2000, config.recipients * 5);

// ---------------------------------------------------------------------------------------------
// Clean-up: servers, receiver, database, once, whatever happens.

let server: ChildProcess | undefined;
let bare: ChildProcess | undefined;
let receiverServer: http.Server | undefined;
let benchDbName: string | undefined;
const agents: http.Agent[] = [];

async function cleanup(): Promise<void> {
  for (const agent of agents) agent.destroy();
  await stopProcess(bare, false);
  // `npm start`'s server leads its own process group (detached): the group is signalled.
  await stopProcess(server, true);
  if (receiverServer) {
    receiverServer.closeAllConnections();
    await new Promise<void>((resolve) => receiverServer!.close(() => resolve()));
  }
  if (benchDbName) await dropBenchDatabase(config.adminUrl, benchDbName);
}

const bench = startBenchRun({
  label: "bench:exam",
  stopping: "stopping the servers, dropping the bench database…",
  cleanup,
  timeoutSeconds: config.timeoutSeconds,
});
for (const stream of [process.stdout, process.stderr]) stream.on("error", () => {});

// ---------------------------------------------------------------------------------------------
// Measuring

type Stats = { p50: number; p99: number; max: number; mean: number };

function stats(values: number[]): Stats {
  if (values.length === 0) return { p50: 0, p99: 0, max: 0, mean: 0 };
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
  return { p50: at(50), p99: at(99), max: sorted[sorted.length - 1], mean: sorted.reduce((s, v) => s + v, 0) / sorted.length };
}

/** CPU seconds of every process in a process group (the detached `npm start`'s server and anything it forked). */
function groupCpuSeconds(pgid: number | undefined): number | undefined {
  if (pgid === undefined || process.platform !== "linux") return undefined;
  let total = 0;
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) !== pgid) continue; // pgrp
      total += (Number(fields[11]) + Number(fields[12])) / 100;
    } catch {
      /* gone meanwhile */
    }
  }
  return total;
}

type Reply = { status: number; body: string; ms: number; error?: string };

/** One request over a kept-alive agent; never throws (an error is a reply with status 0). */
function request(agent: http.Agent, base: URL, method: string, pathname: string, body?: unknown): Promise<Reply> {
  const started = performance.now();
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve) => {
    const req = http.request(
      { host: base.hostname, port: base.port, method, path: pathname, agent, timeout: 30_000, headers: payload ? { "content-type": "application/json", "content-length": Buffer.byteLength(payload) } : {} },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8"), ms: performance.now() - started }));
        res.on("error", (error) => resolve({ status: 0, body: "", ms: performance.now() - started, error: error.message }));
      },
    );
    req.on("timeout", () => req.destroy(new Error("timeout after 30 s")));
    req.on("error", (error) => resolve({ status: 0, body: "", ms: performance.now() - started, error: error.message }));
    req.end(payload);
  });
}

type PhaseResult = {
  phase: string;
  target: string;
  requests: number;
  ok: number;
  /** Status code → count, for everything that is not the expected status. */
  unexpected: Record<string, number>;
  errors: number;
  fiveXX: number;
  /** Replies with the expected status whose body failed the phase's check. */
  badBodies: number;
  seconds: number;
  perSecond: number;
  latency: Stats;
  /** CPU time of the server under test per request (ms), null when not measurable. */
  cpuMsPerRequest: number | null;
  loadAverage: number[];
  firstStart: number;
  lastEnd: number;
};

type Job = { method: string; path: string; body?: unknown; expect: number; check?: (reply: Reply) => boolean };

/**
 * Runs `jobs` with `clients` concurrent clients, closed loop (each sends its next request when
 * the previous one is answered). `jobs` is a list of sequences: a client takes the next
 * sequence and runs it in order (a recipient answering question after question), so
 * sequences run side by side and requests within one never overlap.
 */
async function runPhase(phase: string, target: string, base: URL, sequences: Job[][], clients: number, cpu: () => number | undefined): Promise<PhaseResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  agents.push(agent);
  const total = sequences.reduce((n, s) => n + s.length, 0);
  process.stdout.write(`${phase} (${target}): ${total} requests, ${clients} clients… `);
  const latencies: number[] = [];
  const unexpected: Record<string, number> = {};
  let ok = 0;
  let errors = 0;
  let fiveXX = 0;
  let badBodies = 0;
  let firstError: string | undefined;
  let next = 0;
  const cpuBefore = cpu();
  const started = performance.now();
  let lastEnd = started;
  await Promise.all(
    Array.from({ length: Math.min(clients, sequences.length) }, async () => {
      while (next < sequences.length && !bench.exiting) {
        for (const job of sequences[next++]) {
          const reply = await request(agent, base, job.method, job.path, job.body);
          lastEnd = Math.max(lastEnd, performance.now());
          latencies.push(reply.ms);
          if (reply.status === 0) {
            errors += 1;
            firstError ??= `${job.method} ${job.path}: ${reply.error}`;
          } else if (reply.status !== job.expect) {
            unexpected[reply.status] = (unexpected[reply.status] ?? 0) + 1;
            if (reply.status >= 500) fiveXX += 1;
            firstError ??= `${job.method} ${job.path}: ${reply.status} ${reply.body.slice(0, 200)}`;
          } else if (job.check && !job.check(reply)) {
            badBodies += 1;
            firstError ??= `${job.method} ${job.path}: unexpected body ${reply.body.slice(0, 200)}`;
          } else ok += 1;
        }
      }
    }),
  );
  const cpuAfter = cpu();
  agent.destroy();
  const seconds = (lastEnd - started) / 1000;
  const result: PhaseResult = {
    phase,
    target,
    requests: latencies.length,
    ok,
    unexpected,
    errors,
    fiveXX,
    badBodies,
    seconds,
    perSecond: seconds > 0 ? latencies.length / seconds : 0,
    latency: stats(latencies),
    cpuMsPerRequest: cpuBefore !== undefined && cpuAfter !== undefined && latencies.length ? ((cpuAfter - cpuBefore) * 1000) / latencies.length : null,
    loadAverage: os.loadavg(),
    firstStart: started,
    lastEnd,
  };
  console.log(
    `${result.perSecond.toFixed(0)}/s, p50 ${result.latency.p50.toFixed(0)} ms, p99 ${result.latency.p99.toFixed(0)} ms` +
      (ok === result.requests ? "" : ` — ${result.requests - ok} not as expected (first: ${firstError})`),
  );
  return result;
}

// ---------------------------------------------------------------------------------------------
// The receiver of test.completed: verifies each signature with the endpoint's secret.

type Arrival = { at: number; eventId: string; code: string; email: string; score: number; signature: "valid" | string };

async function startReceiver(): Promise<{ url: string; arrivals: Arrival[]; setSecret(secret: string): void }> {
  const arrivals: Arrival[] = [];
  let secret = "";
  receiverServer = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const at = performance.now();
      const raw = Buffer.concat(chunks);
      try {
        const body = JSON.parse(raw.toString("utf8")) as { event: string; payload: { event_id: string; test: string; score: number; recipient: { email: string } } };
        arrivals.push({
          at,
          eventId: body.payload.event_id,
          code: body.payload.test,
          email: body.payload.recipient.email,
          score: body.payload.score,
          signature: verifyCertification(raw, req.headers, secret),
        });
      } catch (error) {
        arrivals.push({ at, eventId: "", code: "", email: "", score: NaN, signature: `unreadable body: ${(error as Error).message}` });
      }
      res.writeHead(200, { "content-type": "text/plain" }).end("ok");
    });
  });
  await new Promise<void>((resolve) => receiverServer!.listen(0, "127.0.0.1", resolve));
  const { port } = receiverServer.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/lms/webhooks`, arrivals, setSecret: (value) => (secret = value) };
}

// ---------------------------------------------------------------------------------------------
// The test and what each recipient answers

/** `optionOrders[question][shown]` is the option's index in the question (the recipient's shuffle); absent: as stored. */
type Recipient = { token: string; email: string; questionOrder: number[]; optionOrders: Record<string, number[]> };
/** `correct`: the right option's index, or the right set (a `multiple` question), in the question's own order. */
type Question = { id: number; options: number; correct: number | number[] };
type TakenTest = { code: string; recipients: Recipient[]; questions: Map<number, Question> };

/** A stable pseudo-random number in [0, 1) for a recipient and a question. */
function unit(token: string, questionId: number): number {
  return createHash("sha256").update(`${token}:${questionId}`).digest().readUInt32BE(0) / 0x1_0000_0000;
}

/** The option a recipient picks: the right one 70 % of the time (as stored; see the score check). */
/**
 * What the recipient answers, in the positions their page shows (the save takes positions):
 * the right option (or set) for 70 % of the (recipient, question) pairs, a wrong one of the
 * same kind and size otherwise.
 */
function choice(recipient: Recipient, question: Question): { option: number } | { options: number[] } {
  const order = recipient.optionOrders[String(question.id)];
  const shown = (index: number) => (order ? order.indexOf(index) : index);
  const right = unit(recipient.token, question.id) < 0.7;
  if (typeof question.correct === "number") return { option: shown(right ? question.correct : (question.correct + 1) % question.options) };
  const set = right ? question.correct : [...question.correct.slice(1), [...Array(question.options).keys()].find((i) => !(question.correct as number[]).includes(i))!];
  return { options: set.map(shown).sort((a, b) => a - b) };
}

const answersRight = (recipient: Recipient, question: Question) => unit(recipient.token, question.id) < 0.7;

const round1 = (value: number) => Math.round(value * 10) / 10;

function expectedScore(recipient: Recipient, test: TakenTest): number {
  const correct = recipient.questionOrder.filter((id) => {
    const question = test.questions.get(id)!;
    return answersRight(recipient, question);
  }).length;
  return round1((correct / recipient.questionOrder.length) * 100);
}

// ---------------------------------------------------------------------------------------------
// Main

async function main(): Promise<number> {
  const startedAt = new Date();
  const loadBefore = os.loadavg();
  console.log(
    `bench:exam — ${config.recipients} recipients × ${config.questions} questions, ${config.clients} concurrent clients, one instance (npm start's server), ` +
      `pool ${config.poolMax}, ${os.cpus().length} CPUs, Node ${process.version}`,
  );
  console.log(`load average before: ${loadBefore.map((v) => v.toFixed(2)).join(" ")} (the machine is shared: compare ratios within one run)`);

  // 0. The production build.
  if (config.build || !fs.existsSync(path.join(root, ".next", "BUILD_ID"))) {
    console.log(config.build ? "building (--build)…" : "no production build (.next/BUILD_ID is missing): building…");
    const built = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
    if (built.status !== 0) throw new Error(`npm run build failed (exit ${built.status})`);
  }

  // 1. Database, workspace (pro: 1,000 seats), API key, the test-result endpoint at our receiver.
  const receiver = await startReceiver();
  const { name, url: databaseUrl } = await createBenchDatabase(config.adminUrl);
  benchDbName = name;
  console.log(`created database ${name}; receiver on ${receiver.url}`);
  const database = await openDatabase({ url: databaseUrl, poolMax: 2 });
  let apiKey: string;
  let certificationId: number;
  let domainIds: number[];
  try {
    await prepareDatabase(database);
    const { workspace } = await ensureUserWorkspace(database.db, "bench-exam@example.com");
    await setPlan(database.db, workspace.id, "pro");
    apiKey = (await createApiKey(database.db, workspace.id, { name: "bench:exam", scopes: null })).secret;
    const hook = await createTestResultWebhook(database.db, workspace.id, { url: receiver.url });
    receiver.setSecret(hook.secret);
    const id = await catalogCertificationId(database.db, "aws-clf-c02");
    if (!id) throw new Error("the catalog seed has no aws-clf-c02");
    certificationId = id;
    domainIds = (await database.query<{ id: number }>("select id from domains where certification_id = $1 order by position", [certificationId])).map((row) => row.id);
  } catch (error) {
    await database.close();
    throw error;
  }

  // 2. One instance of the production build, with its embedded worker (webhooks to 127.0.0.1 allowed).
  const port = await freePort();
  const base = new URL(`http://127.0.0.1:${port}`);
  const started = startNextServer({
    port,
    nodeArgs: config.nodeArgs,
    keep: 60,
    env: { DATABASE_URL: databaseUrl, DATABASE_POOL_MAX: String(config.poolMax), AUTH_URL: `http://localhost:${port}`, WEBHOOK_ALLOW_PRIVATE: "true" },
  });
  server = started.proc;
  const { output } = started;
  const probeAgent = new http.Agent({ keepAlive: true });
  agents.push(probeAgent);
  const upSince = performance.now();
  for (;;) {
    if (bench.exiting) return 1;
    if (server.exitCode !== null || server.signalCode !== null) throw new Error(`the app server exited:\n${output.join("\n")}`);
    if (performance.now() - upSince > 90_000) throw new Error(`the app server did not answer within 90 s:\n${output.join("\n")}`);
    const reply = await request(probeAgent, base, "GET", "/api/health");
    if (reply.status === 200) break;
    await sleep(250);
  }
  console.log(`app server answering on ${base.origin} after ${((performance.now() - upSince) / 1000).toFixed(1)} s`);

  const api = async (method: string, pathname: string, body?: unknown) => {
    const started = performance.now();
    const payload = JSON.stringify(body);
    const response = await fetch(new URL(pathname, base), {
      method,
      headers: { "content-type": "application/json", "x-api-key": apiKey },
      body: payload,
      signal: AbortSignal.timeout(120_000),
    });
    return { status: response.status, json: (await response.json()) as Record<string, unknown>, ms: performance.now() - started };
  };

  /** Creates a test through the API (timed): each recipient's link from its answer, their questions read back from the database. */
  async function createTest(recipients: number, label: string): Promise<{ test: TakenTest; ms: number; status: number }> {
    const created = await api("POST", "/api/v1/tests", {
      certification_id: certificationId,
      domains: domainIds,
      questions: config.questions,
      recipients: Array.from({ length: recipients }, (_, i) => ({ email: `${label}-${i + 1}@example.com`, name: `Recipient ${i + 1}` })),
      send_email: false,
    });
    if (created.status !== 201) throw new Error(`POST /api/v1/tests answered ${created.status}: ${JSON.stringify(created.json).slice(0, 300)}`);
    const code = String(created.json.code);
    // The database keeps tokens hashed and sealed only: the links come from the API's answer.
    const links = new Map((created.json.recipients as { email: string; link: string }[]).map((r) => [r.email, r.link]));
    const rows = await database.query<{ email: string; question_order: number[] | string; option_orders: Record<string, number[]> | string | null }>(
      "select r.email, r.question_order, r.option_orders from recipients r join tests t on t.id = r.test_id where t.code = $1 order by r.id",
      [code],
    );
    const questionRows = await database.query<{ id: number; options: string[] | string; correct_index: number; correct_indexes: number[] | string | null }>(
      "select q.id, q.options, q.correct_index, q.correct_indexes from test_questions q join tests t on t.id = q.test_id where t.code = $1",
      [code],
    );
    const parse = <T>(value: T | string): T => (typeof value === "string" ? (JSON.parse(value) as T) : value);
    return {
      status: created.status,
      ms: created.ms,
      test: {
        code,
        recipients: rows.map((row) => ({ token: new URL(links.get(row.email)!).pathname.split("/").pop()!, email: row.email, questionOrder: parse(row.question_order), optionOrders: parse(row.option_orders) ?? {} })),
        questions: new Map(questionRows.map((row) => [row.id, { id: row.id, options: parse(row.options).length, correct: parse(row.correct_indexes) ?? row.correct_index }])),
      },
    };
  }

  /** Whether the build has the start step another change adds (POST /api/t/{token}/start): 404/405 means no. */
  async function hasStartStep(token: string): Promise<boolean> {
    const reply = await request(probeAgent, base, "POST", `/api/t/${token}/start`, {});
    if (reply.status === 404 || reply.status === 405) return false;
    if (reply.status >= 200 && reply.status < 300) return true;
    throw new Error(`POST /api/t/{token}/start answered ${reply.status}: ${reply.body.slice(0, 200)}`);
  }

  // The recipient's own start page: its name (bench-N@… is "Recipient N") and its token (the Start button's URL).
  const ownStartPage = (r: Recipient, body: string) => body.includes(`>For Recipient ${/-(\d+)@/.exec(r.email)![1]}</p>`) && body.includes(r.token);
  const pages = (test: TakenTest): Job[][] => test.recipients.map((r) => [{ method: "GET", path: `/t/${r.token}`, expect: 200, check: (reply) => ownStartPage(r, reply.body) }]);
  const starts = (test: TakenTest): Job[][] => test.recipients.map((r) => [{ method: "POST", path: `/api/t/${r.token}/start`, body: {}, expect: 200 }]);
  const saves = (test: TakenTest, answeredAfter: (i: number) => number): Job[][] =>
    test.recipients.map((r) =>
      r.questionOrder.map((id, i) => {
        const question = test.questions.get(id)!;
        return {
          method: "PUT",
          path: `/api/t/${r.token}/answers`,
          body: { question_id: id, ...choice(r, question) },
          expect: 200,
          // Each recipient answers in order, alone: the count is exact.
          check: (reply: Reply) => {
            const body = JSON.parse(reply.body) as { answered: number; questions: number };
            return body.answered === answeredAfter(i) && body.questions === r.questionOrder.length;
          },
        };
      }),
    );
  const submits = (test: TakenTest): Job[][] =>
    test.recipients.map((r) => [
      {
        method: "POST",
        path: `/api/t/${r.token}/submit`,
        expect: 200,
        check: (reply: Reply) => (JSON.parse(reply.body) as { percent: number }).percent === expectedScore(r, test),
      },
    ]);

  // 3. Warm-up: the whole flow on a small test (JIT, pools, the worker), not measured.
  let startStep = false;
  if (config.warmup > 0) {
    process.stdout.write(`warm-up: ${config.warmup} recipients, the whole flow… `);
    const { test } = await createTest(config.warmup, "warmup");
    const warm = async (sequences: Job[][]) => {
      const agent = new http.Agent({ keepAlive: true });
      agents.push(agent);
      await Promise.all(sequences.map(async (sequence) => { for (const job of sequence) await request(agent, base, job.method, job.path, job.body); }));
    };
    await warm(pages(test));
    startStep = await hasStartStep(test.recipients[0].token);
    if (startStep) await warm(starts(test).slice(1));
    await warm(saves(test, (i) => i + 1));
    await warm(submits(test));
    for (let i = 0; i < 200; i++) await request(probeAgent, base, "GET", "/api/health");
    const deadline = performance.now() + 30_000;
    while (receiver.arrivals.filter((a) => a.code === test.code).length < test.recipients.length && performance.now() < deadline) await sleep(20);
    console.log(`done (${receiver.arrivals.filter((a) => a.code === test.code).length} webhooks)`);
  }

  // 4. The exam.
  const phases: PhaseResult[] = [];
  process.stdout.write(`create: POST /api/v1/tests, ${config.recipients} recipients × ${config.questions} questions… `);
  const created = await createTest(config.recipients, "exam");
  const test = created.test;
  console.log(`201 in ${created.ms.toFixed(0)} ms (test ${test.code})`);

  const serverPid = server.pid;
  const pid = () => groupCpuSeconds(serverPid);
  phases.push(await runPhase("open", "GET /t/{token}", base, pages(test), config.clients, pid));
  if (!config.warmup) startStep = await hasStartStep(test.recipients[0].token);
  if (startStep) phases.push(await runPhase("start", "POST /api/t/{token}/start", base, starts(test), config.clients, pid));
  else console.log("start: POST /api/t/{token}/start does not exist in this build (404/405): skipped");
  const saved = await runPhase("answers", "PUT /api/t/{token}/answers", base, saves(test, (i) => i + 1), config.clients, pid);
  phases.push(saved);

  // The floors, before the submits (the bare server saves the same answers again: same values, all still open).
  const barePort = await freePort();
  bare = spawn(process.execPath, ["--import", "tsx", "bench/exam-bare-server.ts"], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe", "ipc"],
    env: { ...process.env, BARE_DATABASE_URL: databaseUrl, BARE_PORT: String(barePort), BARE_POOL_MAX: String(config.poolMax) },
  });
  bare.stderr?.on("data", keepLines(output, 60));
  const bareBase = new URL(`http://127.0.0.1:${barePort}`);
  const bareProcess = bare.pid;
  const barePid = () => cpuSeconds(bareProcess);
  const bareAgent = new http.Agent({ keepAlive: true });
  agents.push(bareAgent);
  for (let tries = 0; ; tries++) {
    const reply = await request(bareAgent, bareBase, "PUT", "/nothing");
    if (reply.status === 404) break;
    if (tries > 200 || bare.exitCode !== null) throw new Error(`the bare server did not start:\n${output.join("\n")}`);
    await sleep(100);
  }
  // Warm it as the app was warmed: its own first requests compile its statement.
  await runPhase("warm-up", "bare", bareBase, saves(test, () => config.questions).slice(0, Math.min(50, test.recipients.length)), config.clients, barePid);
  const bareSaves = await runPhase("answers", "bare node:http + postgres.js", bareBase, saves(test, () => config.questions), config.clients, barePid);
  await stopProcess(bare, false);
  bare = undefined;
  const floor = await runPhase(
    "floor",
    "GET /api/health",
    base,
    Array.from({ length: floorRequests }, () => [{ method: "GET", path: "/api/health", expect: 200 }]),
    config.clients,
    pid,
  );

  const firstArrivalIndex = receiver.arrivals.length;
  const submitted = await runPhase("submit", "POST /api/t/{token}/submit", base, submits(test), config.clients, pid);
  phases.push(submitted);

  // 5. Every test.completed at the receiver.
  process.stdout.write(`webhooks: waiting for ${test.recipients.length} test.completed… `);
  const waitUntil = performance.now() + config.webhookSeconds * 1000;
  const ofTest = () => receiver.arrivals.slice(firstArrivalIndex).filter((a) => a.code === test.code);
  while (ofTest().length < test.recipients.length && performance.now() < waitUntil && !bench.exiting) await sleep(10);
  await sleep(500); // late duplicates, if any
  const arrivals = ofTest();
  const lastArrival = arrivals.length ? Math.max(...arrivals.map((a) => a.at)) : NaN;
  const byEmail = new Map<string, Arrival[]>();
  for (const arrival of arrivals) byEmail.set(arrival.email, [...(byEmail.get(arrival.email) ?? []), arrival]);
  const missing = test.recipients.filter((r) => !byEmail.has(r.email)).length;
  const duplicated = [...byEmail.values()].filter((list) => list.length > 1).length;
  const badSignatures = arrivals.filter((a) => a.signature !== "valid").length;
  const scoreMismatches = test.recipients.filter((r) => byEmail.get(r.email)?.some((a) => a.score !== expectedScore(r, test))).length;
  const stored = await database.query<{ email: string; percent: number | null; status: string }>(
    "select r.email, r.percent, r.status from recipients r join tests t on t.id = r.test_id where t.code = $1",
    [test.code],
  );
  const storedMismatches = stored.filter((row) => row.status !== "completed" || byEmail.get(row.email)?.some((a) => a.score !== row.percent)).length;
  const webhookLagAfterLastSubmit = (lastArrival - submitted.lastEnd) / 1000;
  const webhookSpan = (lastArrival - submitted.firstStart) / 1000;
  console.log(`${arrivals.length} arrived; the last ${webhookLagAfterLastSubmit.toFixed(2)} s after the last submit answered`);
  await database.close();

  // 6. Report.
  const loadAfter = os.loadavg();
  const all = [...phases, bareSaves, floor];
  const table = textTable(
    ["phase", "target", "requests", "req/s", "p50 ms", "p99 ms", "max ms", "non-2xx", "5xx", "errors", "bad body", "server CPU ms/req", "load avg (1 min)"],
    all.map((r) => [
      r.phase,
      r.target,
      String(r.requests),
      r.perSecond.toFixed(0),
      r.latency.p50.toFixed(0),
      r.latency.p99.toFixed(0),
      r.latency.max.toFixed(0),
      String(Object.values(r.unexpected).reduce((s, n) => s + n, 0)),
      String(r.fiveXX),
      String(r.errors),
      String(r.badBodies),
      r.cpuMsPerRequest === null ? "n/a" : r.cpuMsPerRequest.toFixed(2),
      r.loadAverage[0].toFixed(1),
    ]),
    2,
  );
  console.log(`\n${table}\n`);
  console.log(`create: POST /api/v1/tests (${config.recipients} recipients) answered 201 in ${created.ms.toFixed(0)} ms`);
  console.log(
    `webhooks: ${arrivals.length}/${test.recipients.length} test.completed arrived (missing ${missing}, duplicated ${duplicated}, bad signature ${badSignatures}); ` +
      `the last ${webhookLagAfterLastSubmit.toFixed(2)} s after the last submit answered, ${webhookSpan.toFixed(2)} s after the first submit began`,
  );
  console.log(
    `scores: ${scoreMismatches} webhook(s) differ from the score of the stored correct answers, ${storedMismatches} from the recipient's stored result` +
      (scoreMismatches ? " (check choice(): the positions it sends must be the recipient's shuffled ones)" : ""),
  );
  const pageOf = phases.find((r) => r.phase === "open")!;
  const ratio = (r: PhaseResult) => (floor.perSecond > 0 ? r.perSecond / floor.perSecond : 0);
  const mark = (ok: boolean) => (ok ? "met" : "NOT met");
  const targets: [string, boolean][] = [
    [`answer saves ÷ floor ${ratio(saved).toFixed(2)} (≥ 0.5)`, ratio(saved) >= 0.5],
    [`answer saves p99 ${saved.latency.p99.toFixed(0)} ms (< 150 ms at ${config.clients} clients)`, saved.latency.p99 < 150],
    [`pages ÷ floor ${ratio(pageOf).toFixed(2)} (≥ 0.5)`, ratio(pageOf) >= 0.5],
    [`submits ÷ floor ${ratio(submitted).toFixed(2)} (≥ 0.3)`, ratio(submitted) >= 0.3],
    [`every test.completed within 1 s of the last submit: ${webhookLagAfterLastSubmit.toFixed(2)} s`, missing === 0 && webhookLagAfterLastSubmit <= 1],
  ];
  console.log(`\nfloors: Next.js GET /api/health ${floor.perSecond.toFixed(0)}/s; bare answer upsert ${bareSaves.perSecond.toFixed(0)}/s (app saves ÷ bare ${(bareSaves.perSecond ? saved.perSecond / bareSaves.perSecond : 0).toFixed(2)})`);
  for (const [line, ok] of targets) console.log(`target ${mark(ok)}: ${line}`);
  console.log(`load average after: ${loadAfter.map((v) => v.toFixed(2)).join(" ")}`);

  const clean = all.every((r) => r.errors === 0 && r.fiveXX === 0 && Object.keys(r.unexpected).length === 0 && r.badBodies === 0);
  const correct = missing === 0 && duplicated === 0 && badSignatures === 0 && scoreMismatches === 0 && storedMismatches === 0;
  console.log(`no error and no 5xx in any phase: ${clean ? "yes" : "NO"}; exactly one valid webhook per completion, scores as expected: ${correct ? "yes" : "NO"}`);

  writeResults("exam", startedAt, {
    benchmark: "exam",
    startedAt: startedAt.toISOString(),
    config: { ...config, floorRequests, startStep },
    machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, node: process.version, loadAverageBefore: loadBefore, loadAverageAfter: loadAfter },
    create: { ms: created.ms, code: test.code },
    phases: all.map(({ firstStart, lastEnd, ...rest }) => ({ ...rest, spanMs: lastEnd - firstStart })),
    webhooks: { arrived: arrivals.length, missing, duplicated, badSignatures, scoreMismatches, storedMismatches, lastAfterLastSubmitSeconds: webhookLagAfterLastSubmit, spanFromFirstSubmitSeconds: webhookSpan },
    targets: Object.fromEntries(targets.map(([line, ok]) => [line, ok])),
  });
  return clean && correct ? 0 : 1;
}

await bench.finish(main);
