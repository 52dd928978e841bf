/**
 * On-demand throughput benchmark of GET /api/v1/certifications/{id}: the Next.js production
 * build against a bare node:http + postgres.js server giving the same JSON, with and without
 * the key check + rate limit round trip. See bench/README.md.
 *
 *   npm run build && npm run bench:api
 *
 * Loopback only. Creates a throw-away database bench_<random> on the PostgreSQL server at
 * BENCH_DATABASE_URL and drops it at the end, whatever happens; stops by itself.
 */
import { randomBytes } from "node:crypto";
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { ensureUserWorkspace } from "@/lib/platform/workspaces";
import { createApiKey } from "@/lib/platform/keys";
import {
  cpuSeconds,
  createBenchDatabase,
  dropBenchDatabase,
  freePort,
  intEnv,
  sleep,
  startBenchRun,
  stopProcess,
  textTable,
  writeResults,
} from "./support";
import { openDatabase, prepareDatabase } from "@/lib/platform/database";

// ---------------------------------------------------------------------------------------------
// Settings

const root = process.cwd();

const config = {
  adminUrl: process.env.BENCH_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres",
  // No upper bounds here (max Infinity).
  seconds: intEnv("BENCH_SECONDS", 10, 1, Infinity),
  connections: intEnv("BENCH_CONNECTIONS", 20, 1, Infinity),
  warmupSeconds: intEnv("BENCH_WARMUP_SECONDS", 2, 0, Infinity),
  /** Sizes the key pool before the first run; topped up from the measured bare rate. */
  plannedRps: intEnv("BENCH_PLANNED_RPS", 4000, 1, Infinity),
  /** postgres.js pool per server process (the app's DATABASE_POOL_MAX; its default is 10). */
  poolMax: intEnv("BENCH_POOL_MAX", Number(process.env.DATABASE_POOL_MAX ?? 10), 1, Infinity),
  certificationId: process.env.BENCH_CERT_ID ? intEnv("BENCH_CERT_ID", 1, 1, Infinity) : undefined,
};
const timeoutSeconds = intEnv(
  "BENCH_TIMEOUT_SECONDS",
  Math.max(180, 90 + 3 * (config.warmupSeconds + config.seconds)),
  1,
  Infinity,
);

/** Requests per key per 60 s window is 120; stay under it with a margin. */
const PER_KEY_BUDGET = 110;
/** The app's plan limit of active keys per workspace. */
const KEYS_PER_WORKSPACE = 5;
/** Phases that spend keys against the 120/60 s limit: the app and bare+admit (warm-up + run each). */
const KEYED_PHASES = 2;

// ---------------------------------------------------------------------------------------------
// Clean-up state: everything started here is registered and undone by cleanup() (run once, by bench).

const children: { name: string; proc: ChildProcess; group: boolean }[] = [];
let benchDbName: string | undefined;
let running: autocannon.Instance | undefined;

async function cleanup(): Promise<void> {
  running?.stop();
  // Next is started as the leader of its own process group (group: true): the group is
  // signalled, so any worker it forks stops with it. Only processes this script started.
  await Promise.all(children.map((child) => stopProcess(child.proc, child.group)));
  if (benchDbName) await dropBenchDatabase(config.adminUrl, benchDbName);
}

const bench = startBenchRun({
  label: "bench:api",
  stopping: "stopping servers and dropping the bench database…",
  cleanup,
  timeoutSeconds,
});

// ---------------------------------------------------------------------------------------------
// Helpers

/** Keeps the last lines of a child's output, shown if it fails. */
function captureOutput(name: string, proc: ChildProcess): () => string {
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    for (const line of chunk.toString("utf8").split("\n")) {
      if (!line.trim()) continue;
      lines.push(`[${name}] ${line}`);
      if (lines.length > 40) lines.shift();
    }
  };
  proc.stdout?.on("data", keep);
  proc.stderr?.on("data", keep);
  return () => lines.join("\n");
}

function startChild(name: string, args: string[], env: NodeJS.ProcessEnv, options: { group: boolean; ipc: boolean }) {
  const proc = spawn(process.execPath, args, {
    cwd: root,
    env,
    detached: options.group,
    stdio: options.ipc ? ["ignore", "pipe", "pipe", "ipc"] : ["ignore", "pipe", "pipe"],
  });
  children.push({ name, proc, group: options.group });
  return { proc, output: captureOutput(name, proc) };
}

/** Polls until the server answers any HTTP response (the API answers 401 without a key). */
async function waitUntilAnswering(name: string, url: string, proc: ChildProcess, output: () => string, limitMs = 60_000) {
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null || proc.signalCode !== null) {
      throw new Error(`${name} exited (${proc.exitCode ?? proc.signalCode}) before answering:\n${output()}`);
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await response.arrayBuffer();
      return;
    } catch {
      await sleep(200);
    }
  }
  throw new Error(`${name} did not answer within ${limitMs / 1000} s:\n${output()}`);
}

/** Round-robin over the key pool, so every key gets total/N requests, evenly spread in time. */
class KeyRing {
  private index = 0;
  used = 0;
  constructor(readonly keys: string[]) {}
  next(): string {
    const key = this.keys[this.index];
    this.index = (this.index + 1) % this.keys.length;
    this.used += 1;
    return key;
  }
}

// ---------------------------------------------------------------------------------------------
// Database

/** Creates `count` keys, KEYS_PER_WORKSPACE per workspace, several workspaces at a time. */
async function createKeys(url: string, count: number, firstWorkspace: number): Promise<{ keys: string[]; workspaces: number }> {
  const database = await openDatabase({ url, poolMax: 8 });
  try {
    const workspaces = Math.ceil(count / KEYS_PER_WORKSPACE);
    const keys: string[] = [];
    let next = 0;
    const worker = async () => {
      while (next < workspaces) {
        const n = firstWorkspace + next++;
        const { workspace } = await ensureUserWorkspace(database.db, `bench${n}@example.com`);
        for (let k = 0; k < KEYS_PER_WORKSPACE && keys.length < count; k++) {
          const { secret } = await createApiKey(database.db, workspace.id, { name: `bench ${k + 1}` });
          keys.push(secret);
        }
      }
    };
    await Promise.all(Array.from({ length: 6 }, worker));
    return { keys, workspaces };
  } finally {
    await database.close();
  }
}

function keysFor(requestsPerSecond: number): number {
  const planned = requestsPerSecond * (config.warmupSeconds + config.seconds) * KEYED_PHASES;
  return Math.ceil(planned / PER_KEY_BUDGET);
}

// ---------------------------------------------------------------------------------------------
// Load

type Line = {
  name: string;
  requestsPerSecond: number;
  requestsPerSecondStddev: number;
  requests: number;
  latencyMs: { mean: number; p50: number; p90: number; p99: number; max: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  durationSeconds: number;
  /** CPU time of the server process per answered request (Linux only): load-independent cost. */
  serverCpuMsPerRequest: number | null;
};

async function load(base: string, path: string, seconds: number, ring: KeyRing): Promise<autocannon.Result> {
  if (bench.exiting) throw new Error("stopped");
  running = autocannon({
    url: base,
    connections: config.connections,
    duration: seconds,
    timeout: 10,
    requests: [
      {
        method: "GET",
        path,
        // Every request carries the next key of the pool (the bare server ignores it, but the
        // client does the same work for all three lines).
        setupRequest: (request) => ({ ...request, headers: { ...request.headers, "x-api-key": ring.next() } }),
      },
    ],
  });
  try {
    return await running;
  } finally {
    running = undefined;
  }
}

async function measure(name: string, base: string, path: string, ring: KeyRing, serverPid: number | undefined): Promise<Line> {
  if (bench.exiting) throw new Error("stopped");
  if (config.warmupSeconds > 0) {
    process.stdout.write(`${name}: warm-up ${config.warmupSeconds} s… `);
    await load(base, path, config.warmupSeconds, ring);
  } else {
    process.stdout.write(`${name}: `);
  }
  process.stdout.write(`measuring ${config.seconds} s… `);
  const cpuBefore = cpuSeconds(serverPid);
  const r = await load(base, path, config.seconds, ring);
  const cpuAfter = cpuSeconds(serverPid);
  const statusCodes = Object.fromEntries(Object.entries(r.statusCodeStats).map(([code, s]) => [code, Number(s.count)]));
  const line: Line = {
    name,
    requestsPerSecond: r.requests.average,
    requestsPerSecondStddev: r.requests.stddev,
    requests: r.requests.total,
    latencyMs: { mean: r.latency.average, p50: r.latency.p50, p90: r.latency.p90, p99: r.latency.p99, max: r.latency.max },
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    statusCodes,
    durationSeconds: r.duration,
    serverCpuMsPerRequest:
      cpuBefore !== undefined && cpuAfter !== undefined && r.requests.total > 0
        ? ((cpuAfter - cpuBefore) * 1000) / r.requests.total
        : null,
  };
  console.log(`${Math.round(line.requestsPerSecond)} req/s`);
  return line;
}

async function fetchBody(name: string, url: string, key: string): Promise<string> {
  const response = await fetch(url, { headers: { "x-api-key": key }, signal: AbortSignal.timeout(10_000) });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${name}: GET ${url} answered ${response.status}: ${text.slice(0, 300)}`);
  return JSON.stringify(JSON.parse(text));
}

// ---------------------------------------------------------------------------------------------
// Report

function formatTable(lines: Line[]): string {
  const header = ["target", "req/s (mean)", "p50 ms", "p99 ms", "non-2xx", "errors", "server CPU ms/req"];
  const rows = lines.map((l) => [
    l.name,
    l.requestsPerSecond.toFixed(1),
    String(l.latencyMs.p50),
    String(l.latencyMs.p99),
    String(l.non2xx),
    String(l.errors),
    l.serverCpuMsPerRequest === null ? "n/a" : l.serverCpuMsPerRequest.toFixed(2),
  ]);
  return textTable(header, rows, 1);
}

function percent(a: number, b: number): string {
  return b > 0 ? `${((a / b) * 100).toFixed(1)} %` : "n/a";
}

// ---------------------------------------------------------------------------------------------
// Main

async function main(): Promise<void> {
  if (!fs.existsSync(path.join(root, ".next", "BUILD_ID"))) {
    console.error("No production build (.next/BUILD_ID is missing): run npm run build first.");
    process.exit(1);
  }
  const startedAt = new Date();
  console.log(
    `bench:api — ${config.seconds} s per target, ${config.connections} connections, warm-up ${config.warmupSeconds} s, ` +
      `pool ${config.poolMax}, ${os.cpus().length} CPUs, Node ${process.version}`,
  );

  // 1. A fresh database, migrated and seeded, with the key pool.
  const { name, url } = await createBenchDatabase(config.adminUrl);
  benchDbName = name;
  console.log(`created database ${benchDbName}`);
  let certificationId = config.certificationId;
  {
    const database = await openDatabase({ url, poolMax: 2 });
    try {
      await prepareDatabase(database);
      if (certificationId === undefined) {
        const [row] = await database.query<{ id: number }>(
          "select min(id)::int as id from certifications where workspace_id is null",
        );
        if (!row?.id) throw new Error("The catalog seed left no certification.");
        certificationId = row.id;
      }
    } finally {
      await database.close();
    }
  }
  const apiPath = `/api/v1/certifications/${certificationId}`;
  let t = performance.now();
  const firstPool = await createKeys(url, keysFor(config.plannedRps), 1);
  let workspaceCount = firstPool.workspaces;
  const keys = firstPool.keys;
  console.log(
    `created ${keys.length} API keys in ${workspaceCount} workspaces in ${((performance.now() - t) / 1000).toFixed(1)} s ` +
      `(planned ${config.plannedRps} req/s)`,
  );

  // 2–3. The servers: Next.js production build, the bare server, the bare server + admit.
  const [appPort, barePort, admitPort] = [await freePort(), await freePort(), await freePort()];
  const appBase = `http://127.0.0.1:${appPort}`;
  const bareBase = `http://127.0.0.1:${barePort}`;
  const admitBase = `http://127.0.0.1:${admitPort}`;
  const baseEnv = { ...process.env };
  const app = startChild(
    "next",
    ["scripts/serve.mjs", "-p", String(appPort), "-H", "127.0.0.1"], // npm start's server
    {
      ...baseEnv,
      DATABASE_URL: url,
      DATABASE_POOL_MAX: String(config.poolMax),
      API_LOG: "off",
      NODE_ENV: "production",
      // Production requires both (lib/kernel/config/config.ts).
      AUTH_SECRET: randomBytes(32).toString("base64url"),
      AUTH_URL: appBase,
      NEXT_TELEMETRY_DISABLED: "1",
    },
    { group: true, ipc: false },
  );
  const bareEnv = { ...baseEnv, BARE_DATABASE_URL: url, BARE_POOL_MAX: String(config.poolMax), NODE_ENV: "production" as const };
  const bare = startChild("bare", ["--import", "tsx", "bench/bare-server.ts"], { ...bareEnv, BARE_PORT: String(barePort) }, {
    group: false,
    ipc: true,
  });
  const admit = startChild(
    "bare+admit",
    ["--import", "tsx", "bench/bare-server.ts"],
    { ...bareEnv, BARE_PORT: String(admitPort), BARE_ADMIT: "1" },
    { group: false, ipc: true },
  );
  t = performance.now();
  await Promise.all([
    waitUntilAnswering("next", appBase + apiPath, app.proc, app.output),
    waitUntilAnswering("bare", bareBase + apiPath, bare.proc, bare.output),
    waitUntilAnswering("bare+admit", admitBase + apiPath, admit.proc, admit.output),
  ]);
  console.log(`servers answering after ${((performance.now() - t) / 1000).toFixed(1)} s (next :${appPort}, bare :${barePort}, bare+admit :${admitPort})`);

  // Same JSON from all three, checked once before measuring.
  const bodies = await Promise.all([
    fetchBody("next", appBase + apiPath, keys[0]),
    fetchBody("bare", bareBase + apiPath, keys[0]),
    fetchBody("bare+admit", admitBase + apiPath, keys[1]),
  ]);
  if (bodies[0] !== bodies[1] || bodies[0] !== bodies[2]) {
    console.warn("WARNING: the three servers do not answer the same JSON:");
    for (const [i, name] of ["next", "bare", "bare+admit"].entries()) console.warn(`  ${name}: ${bodies[i].slice(0, 400)}`);
  } else {
    console.log(`same JSON from all three (${bodies[0].length} bytes)`);
  }

  // 4. Load: bare first (it bounds the others and sizes the key pool), then the app, then bare+admit.
  const lines: Line[] = [];
  const bareLine = await measure("bare", bareBase, apiPath, new KeyRing(keys), bare.proc.pid);
  const needed = keysFor(Math.max(config.plannedRps, Math.ceil(bareLine.requestsPerSecond * 1.1)));
  if (needed > keys.length) {
    t = performance.now();
    const extra = await createKeys(url, needed - keys.length, workspaceCount + 1);
    keys.push(...extra.keys);
    workspaceCount += extra.workspaces;
    console.log(`topped the key pool up to ${keys.length} keys (${workspaceCount} workspaces) in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  }
  // One ring for both keyed phases: their requests share each key's 60 s window.
  const ring = new KeyRing(keys);
  const appLine = await measure("next app", appBase, apiPath, ring, app.proc.pid);
  const admitLine = await measure("bare+admit", admitBase, apiPath, ring, admit.proc.pid);
  // The framework's own floor on this machine: a Next.js route with no key, no limit, no
  // database (`/api/health`). What the app line can reach at best.
  const floorLine = await measure("next floor", appBase, "/api/health", ring, app.proc.pid);
  lines.push(bareLine, admitLine, appLine, floorLine);

  // 5. Report.
  const ratios = {
    appOverBare: appLine.requestsPerSecond / bareLine.requestsPerSecond,
    admitOverBare: admitLine.requestsPerSecond / bareLine.requestsPerSecond,
    floorOverBare: floorLine.requestsPerSecond / bareLine.requestsPerSecond,
    appOverFloor: appLine.requestsPerSecond / floorLine.requestsPerSecond,
  };
  console.log(`\nGET ${apiPath} — ${config.seconds} s, ${config.connections} connections each\n`);
  console.log(formatTable(lines));
  console.log("");
  console.log(`app / bare:           ${percent(appLine.requestsPerSecond, bareLine.requestsPerSecond)}`);
  console.log(`(bare+admit) / bare:  ${percent(admitLine.requestsPerSecond, bareLine.requestsPerSecond)}`);
  console.log(`next floor / bare:    ${percent(floorLine.requestsPerSecond, bareLine.requestsPerSecond)}  (a Next.js route doing nothing: the ceiling of "app / bare" here)`);
  console.log(`app / next floor:     ${percent(appLine.requestsPerSecond, floorLine.requestsPerSecond)}`);
  console.log(`key pool: ${keys.length} keys, at most ${Math.ceil(ring.used / keys.length)} requests per key in the keyed runs (limit 120 per 60 s)`);
  for (const line of lines) {
    if (line.non2xx > 0 || line.errors > 0) {
      const codes = Object.entries(line.statusCodes)
        .filter(([code]) => !code.startsWith("2"))
        .map(([code, count]) => `${code}×${count}`)
        .join(", ");
      console.log(`  ${line.name}: non-2xx ${codes || line.non2xx}; errors ${line.errors} (timeouts ${line.timeouts})`);
    }
  }
  if (lines.some((l) => (l.statusCodes["429"] ?? 0) > 0)) {
    console.log("  429s mean the key pool was too small: raise BENCH_PLANNED_RPS.");
  }

  writeResults("api-throughput", startedAt, {
    benchmark: "api-throughput",
    startedAt: startedAt.toISOString(),
    endpoint: `GET ${apiPath}`,
    config: {
      seconds: config.seconds,
      connections: config.connections,
      warmupSeconds: config.warmupSeconds,
      poolMax: config.poolMax,
      plannedRps: config.plannedRps,
      keys: keys.length,
      workspaces: workspaceCount,
    },
    machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, node: process.version, platform: `${os.platform()} ${os.release()}` },
    results: lines,
    ratios,
  });
}

await bench.finish(main);
