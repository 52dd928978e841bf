/**
 * On-demand benchmark of issue 21's two catastrophic-backtracking holes, on the production
 * build: a Search Party search whose LIKE has many `%` (it was a RegExp: 15.8 s with 12 `%`,
 * 68 s with 40) and a flag attempt against `CTF\{(?:a|a){28}\}` (10 s for 33 characters on
 * JavaScript's engine). Each hostile request is sent one after another while a second client
 * polls `GET /api/health` without pause; both latencies are printed (p50, p99, max) and must
 * stay under BENCH_LIMIT_MS (100). Each answer is checked too (the right products, `incorrect`).
 *
 *   npm run build && npm run bench:redos                  # its own server and database
 *   BENCH_URL=http://localhost:3000 BENCH_API_KEY=… npm run bench:redos   # a running server
 *
 * Everything is made through the API (a competition, a regex challenge, a generated Search
 * Party challenge, a deployment of each, players who join them). Loopback only in the first
 * form: a throw-away database bench_<random> next to BENCH_DATABASE_URL, dropped at the end
 * whatever happens; stops by itself (overall timeout). See bench/README.md.
 */
import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { createApiKey } from "@/lib/platform/keys";
import { ensureUserWorkspace } from "@/lib/platform/workspaces";
import { createBenchDatabase, dropBenchDatabase, freePort, intEnv, sleep, startBenchRun, startNextServer, stopProcess, textTable, writeResults } from "./support";
import { openDatabase, prepareDatabase } from "@/lib/platform/database";

const settings = {
  url: process.env.BENCH_URL || undefined,
  apiKey: process.env.BENCH_API_KEY || undefined,
  adminUrl: process.env.BENCH_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres",
  /** Hostile requests of each kind. */
  requests: intEnv("BENCH_REQUESTS", 20, 1, 100),
  limitMs: intEnv("BENCH_LIMIT_MS", 100, 1, 60_000),
  timeoutSeconds: intEnv("BENCH_TIMEOUT_SECONDS", 300, 30, 3_600),
};
if (settings.url && !settings.apiKey) {
  console.error("BENCH_URL needs BENCH_API_KEY: a key with full access of a workspace on that server (it creates a competition and two deployments there).");
  process.exit(2);
}

// ---------------------------------------------------------------------------------------------
// Clean-up: the server and the database, if this script made them.

let server: ChildProcess | undefined;
let benchDbName: string | undefined;
const agents: http.Agent[] = [];

async function cleanup(): Promise<void> {
  for (const agent of agents) agent.destroy();
  await stopProcess(server, true);
  if (benchDbName) await dropBenchDatabase(settings.adminUrl, benchDbName);
}

const bench = startBenchRun({ label: "bench:redos", stopping: "stopping the server, dropping the bench database…", cleanup, timeoutSeconds: settings.timeoutSeconds });
for (const stream of [process.stdout, process.stderr]) stream.on("error", () => {});

// ---------------------------------------------------------------------------------------------
// Requests

type Reply = { status: number; body: string; headers: http.IncomingHttpHeaders; ms: number; error?: string };

function agent(): http.Agent {
  const created = new http.Agent({ keepAlive: true, maxSockets: 1 });
  agents.push(created);
  return created;
}

/** One request; never throws (an error is a reply with status 0). */
function request(via: http.Agent, base: URL, method: string, pathname: string, options: { body?: unknown; headers?: Record<string, string> } = {}): Promise<Reply> {
  const started = performance.now();
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers: Record<string, string | number> = { ...options.headers };
  if (payload) Object.assign(headers, { "content-type": "application/json", "content-length": Buffer.byteLength(payload) });
  return new Promise((resolve) => {
    const req = http.request({ host: base.hostname, port: base.port, method, path: pathname, agent: via, timeout: 120_000, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8"), headers: res.headers, ms: performance.now() - started }));
      res.on("error", (error) => resolve({ status: 0, body: "", headers: {}, ms: performance.now() - started, error: error.message }));
    });
    req.on("timeout", () => req.destroy(new Error("timeout after 120 s")));
    req.on("error", (error) => resolve({ status: 0, body: "", headers: {}, ms: performance.now() - started, error: error.message }));
    req.end(payload);
  });
}

type Stats = { n: number; p50: number; p99: number; max: number };

function stats(values: number[]): Stats {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
  return { n: sorted.length, p50: at(50), p99: at(99), max: sorted[sorted.length - 1] ?? 0 };
}

// ---------------------------------------------------------------------------------------------
// Main

async function main(): Promise<number> {
  const startedAt = new Date();
  console.log(`bench:redos — ${settings.requests} hostile requests of each kind beside a /api/health poller, limit ${settings.limitMs} ms, ${os.cpus().length} CPUs, Node ${process.version}`);
  console.log(`load average before: ${os.loadavg().map((v) => v.toFixed(2)).join(" ")}`);

  // 1. The server: the one given, or the production build on a throw-away database.
  let base: URL;
  let apiKey: string;
  if (settings.url) {
    base = new URL(settings.url);
    apiKey = settings.apiKey!;
    console.log(`using the server at ${base.origin}`);
  } else {
    if (!fs.existsSync(path.join(process.cwd(), ".next", "BUILD_ID"))) {
      console.error("no production build (.next/BUILD_ID is missing): run `npm run build` first, or give BENCH_URL of a running server.");
      return 1;
    }
    const { name, url: databaseUrl } = await createBenchDatabase(settings.adminUrl);
    benchDbName = name;
    const database = await openDatabase({ url: databaseUrl, poolMax: 2 });
    try {
      await prepareDatabase(database);
      // The free plan: the hostile pattern is accepted there too.
      const { workspace } = await ensureUserWorkspace(database.db, "bench-redos@example.com");
      apiKey = (await createApiKey(database.db, workspace.id, { name: "bench:redos", scopes: null })).secret;
    } finally {
      await database.close();
    }
    const port = await freePort();
    base = new URL(`http://127.0.0.1:${port}`);
    const started = startNextServer({ port, keep: 60, env: { DATABASE_URL: databaseUrl, AUTH_URL: `http://localhost:${port}`, CTFD_URL: "", CTFD_TOKEN: "" } });
    server = started.proc;
    const probe = agent();
    const upSince = performance.now();
    for (;;) {
      if (bench.exiting) return 1;
      if (server.exitCode !== null || server.signalCode !== null) throw new Error(`the app server exited:\n${started.output.join("\n")}`);
      if (performance.now() - upSince > 90_000) throw new Error(`the app server did not answer within 90 s:\n${started.output.join("\n")}`);
      if ((await request(probe, base, "GET", "/api/health")).status === 200) break;
      await sleep(250);
    }
    console.log(`created database ${name}; app server (npm start's) answering on ${base.origin}`);
  }

  // 2. Through the API: a competition, the hostile regex challenge, a Search Party challenge, a deployment of each.
  const setup = agent();
  const api = async (method: string, pathname: string, body?: unknown, expect = [200]) => {
    const reply = await request(setup, base, method, pathname, { body, headers: { "x-api-key": apiKey } });
    if (!expect.includes(reply.status)) throw new Error(`${method} ${pathname} answered ${reply.status}: ${(reply.error ?? reply.body).slice(0, 300)}`);
    return JSON.parse(reply.body) as Record<string, unknown>;
  };
  const until = async (what: string, read: () => Promise<Record<string, unknown>>, done: (view: Record<string, unknown>) => boolean) => {
    const deadline = performance.now() + 60_000;
    for (;;) {
      const view = await read();
      if (done(view)) return view;
      if (bench.exiting || performance.now() > deadline) throw new Error(`${what} not ready after 60 s: ${JSON.stringify(view).slice(0, 300)}`);
      await sleep(200);
    }
  };
  const now = Date.now();
  const ctf = await api("POST", "/api/v1/ctfs", { title: "bench:redos", starts_at: new Date(now).toISOString(), ends_at: new Date(now + 86_400_000).toISOString() }, [201]);
  const ctfPath = `/api/v1/ctfs/${String(ctf.id)}`;
  const pattern = "CTF\\{(?:a|a){28}\\}";
  const regex = await api("POST", `${ctfPath}/challenges`, { title: "Hostile pattern", category: "web", flag: pattern, flag_mode: "regex" }, [201]);
  console.log(`POST ${ctfPath}/challenges with flag ${pattern} (regex) → 201`);
  const generated = await api("POST", `${ctfPath}/challenges/generate`, { category: "web", difficulty: "easy", template: "search-party" }, [202]);
  await until("the Search Party challenge", () => api("GET", `${ctfPath}/challenges/${String(generated.id)}`), (view) => view.status === "draft");
  const deploy = async (challengeId: unknown) => {
    const created = await api("POST", "/api/v1/deployments", { challenge_id: challengeId, duration_minutes: 30 }, [202]);
    await until("a deployment", () => api("GET", `/api/v1/deployments/${String(created.id)}`), (view) => view.status === "live");
    return String(created.id);
  };
  const searchDeployment = await deploy(generated.id);
  const flagDeployment = await deploy(regex.id);
  const join = async (deploymentId: string, name: string) => {
    const reply = await request(setup, base, "POST", `/api/d/${deploymentId}/join`, { body: { name }, headers: { origin: base.origin } });
    if (reply.status !== 201) throw new Error(`join answered ${reply.status}: ${reply.body.slice(0, 300)}`);
    return String(reply.headers["set-cookie"]?.[0] ?? "").split(";")[0];
  };
  const searcher = await join(searchDeployment, "Searcher");
  console.log(`deployments live: ${searchDeployment} (Search Party), ${flagDeployment} (the pattern)`);

  // 3. The hostile requests. Flag attempts are throttled per player (10 a minute): a new player every 9.
  type Kind = { label: string; send: (via: http.Agent, i: number) => Promise<Reply>; check: (reply: Reply) => string | null };
  const search = (q: string) => (via: http.Agent) => request(via, base, "GET", `/api/d/${searchDeployment}/target/search?q=${encodeURIComponent(q)}`, { headers: { cookie: searcher } });
  const visible = (reply: Reply) => {
    if (reply.status !== 200) return `status ${reply.status}`;
    const products = reply.body.split("\n").filter((line) => / \| \d+$/.test(line)).length;
    if (products !== 7 || reply.body.includes("launch code")) return `expected the 7 visible products, got: ${reply.body.slice(0, 200)}`;
    return null;
  };
  const players: string[] = [];
  const attempt = (flag: string) => async (via: http.Agent, i: number) => {
    const index = Math.floor(i / 9);
    players[index] ??= await join(flagDeployment, `Player ${index + 1}`);
    return request(via, base, "POST", `/api/d/${flagDeployment}/attempts`, { body: { flag }, headers: { origin: base.origin, cookie: players[index] } });
  };
  let attempts = 0;
  const incorrect = (reply: Reply) => (reply.status === 200 && (JSON.parse(reply.body) as { status: string }).status === "incorrect" ? null : `expected 200 incorrect, got ${reply.status}: ${reply.body.slice(0, 200)}`);
  const kinds: Kind[] = [
    { label: "LIKE, 12 % (the reported request)", send: search(`' OR '${"a".repeat(24)}' LIKE '${"%".repeat(12)}!`), check: visible },
    { label: "LIKE, 40 %", send: search(`' OR '${"a".repeat(24)}' LIKE '${"%".repeat(40)}!`), check: visible },
    { label: "LIKE, 145 % over 140 characters (the search's 300)", send: search(`' OR '${"a".repeat(140)}' LIKE '${"%".repeat(145)}!`), check: visible },
    { label: "flag attempt, 33 characters", send: (via) => attempt(`CTF{${"a".repeat(28)}!`)(via, attempts++), check: incorrect },
    { label: "flag attempt, 500 characters", send: (via) => attempt(`CTF{${"a".repeat(495)}!`)(via, attempts++), check: incorrect },
  ];

  // Warm-up (route compilation, JIT), not measured: one of each, and some health checks.
  const hostile = agent();
  const poller = agent();
  for (const kind of kinds) {
    const problem = kind.check(await kind.send(hostile, 0));
    if (problem) throw new Error(`${kind.label}: ${problem}`);
  }
  const healthAlone: number[] = [];
  for (let i = 0; i < 200; i++) healthAlone.push((await request(poller, base, "GET", "/api/health")).ms);

  const rows: { label: string; latency: Stats; wrong: number; firstWrong: string | null }[] = [];
  let polling = true;
  const beside: number[] = [];
  let healthFailures = 0;
  const polled = (async () => {
    while (polling && !bench.exiting) {
      const reply = await request(poller, base, "GET", "/api/health");
      if (reply.status !== 200) healthFailures += 1;
      beside.push(reply.ms);
    }
  })();
  for (const kind of kinds) {
    const latencies: number[] = [];
    let wrong = 0;
    let firstWrong: string | null = null;
    for (let i = 0; i < settings.requests && !bench.exiting; i++) {
      const reply = await kind.send(hostile, i);
      latencies.push(reply.ms);
      const problem = kind.check(reply);
      if (problem) {
        wrong += 1;
        firstWrong ??= problem;
      }
    }
    rows.push({ label: kind.label, latency: stats(latencies), wrong, firstWrong });
  }
  polling = false;
  await polled;
  if (bench.exiting) return 1;

  // 4. Report.
  const health = { alone: stats(healthAlone), beside: stats(beside) };
  const fmt = (value: number) => value.toFixed(1);
  const table = [
    ...rows.map((row) => [row.label, String(row.latency.n), String(row.latency.n - row.wrong), fmt(row.latency.p50), fmt(row.latency.p99), fmt(row.latency.max)]),
    ["GET /api/health beside them", String(health.beside.n), String(health.beside.n - healthFailures), fmt(health.beside.p50), fmt(health.beside.p99), fmt(health.beside.max)],
    ["GET /api/health alone, before", String(health.alone.n), "", fmt(health.alone.p50), fmt(health.alone.p99), fmt(health.alone.max)],
  ];
  console.log(`\n${textTable(["request", "n", "right", "p50 ms", "p99 ms", "max ms"], table)}`);
  console.log(`load average after: ${os.loadavg().map((v) => v.toFixed(2)).join(" ")}`);
  const over = [...rows.map((row) => ({ label: row.label, max: row.latency.max })), { label: "GET /api/health beside them", max: health.beside.max }].filter((row) => row.max >= settings.limitMs);
  const wrong = rows.filter((row) => row.wrong > 0);
  for (const row of wrong) console.log(`WRONG: ${row.label}: ${row.wrong} wrong answers (first: ${row.firstWrong})`);
  if (healthFailures) console.log(`WRONG: /api/health failed ${healthFailures} times`);
  for (const row of over) console.log(`OVER ${settings.limitMs} ms: ${row.label} (max ${fmt(row.max)} ms)`);
  const passed = !over.length && !wrong.length && !healthFailures;
  console.log(passed ? `\nevery hostile request and every health check answered right and under ${settings.limitMs} ms` : "\nFAILED");
  writeResults("redos", startedAt, { startedAt, settings: { ...settings, apiKey: undefined }, server: settings.url ?? "npm start's server (this run)", loadAverage: os.loadavg(), rows, health, healthFailures, passed });
  return passed ? 0 : 1;
}

void bench.finish(main);
