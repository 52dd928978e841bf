/**
 * On-demand benchmark: the server response time of the recipient's test page, GET /t/<token>
 * (server-rendered: token lookup, the test's questions, domains and answers, the HTML).
 *
 *   npm run build && npx tsx bench/recipient-page.ts
 *
 * Creates a throw-away PostgreSQL database bench_<random> next to BENCH_DATABASE_URL, a
 * pro-plan workspace and one test of 20 questions for 50 recipients (send_email false) with
 * the app's own domain functions, then starts the production build (`npm start`'s server) on a free
 * loopback port against it. Every recipient is started (POST /api/t/<token>/start, the Start
 * button: a write, kept out of the measurement) and its link opened once, then autocannon loads GET
 * /t/<token> round-robin over the 50 tokens for BENCH_SECONDS. The server is stopped and the
 * database dropped at the end, also on error, Ctrl-C or the 3-minute overall timeout.
 * See bench/README.md.
 */
import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { catalogCertificationId } from "@/db/seed";
import { ensureUserWorkspace, setPlan } from "@/lib/platform/workspaces";
import { createTest } from "@/lib/certification/tests/tests";
import { cpuSeconds, createBenchDatabase, dropBenchDatabase, freePort, intEnv, sleep, startBenchRun, startNextServer, stopProcess } from "./support";
import { createTestInput } from "@/lib/certification/tests/schemas";
import { openDatabase, prepareDatabase } from "@/lib/platform/database";

const root = process.cwd();
const config = {
  adminUrl: process.env.BENCH_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres",
  seconds: intEnv("BENCH_SECONDS", 10, 1, 60),
  connections: intEnv("BENCH_CONNECTIONS", 10, 1, 200),
  recipients: intEnv("BENCH_RECIPIENTS", 50, 1, 1000),
  questions: intEnv("BENCH_QUESTIONS", 20, 1, 40),
};
const TIMEOUT_SECONDS = 180;

// ---------------------------------------------------------------------------------------------
// Clean-up: the server and the database, once, whatever happens.

let server: ChildProcess | undefined;
let benchDbName: string | undefined;
let running: autocannon.Instance | undefined;

async function cleanup(): Promise<void> {
  running?.stop();
  // `npm start`'s server leads its own process group (detached): signal the group, so anything it
  // forked stops too. Only the process this script started is addressed.
  await stopProcess(server, true);
  if (benchDbName) await dropBenchDatabase(config.adminUrl, benchDbName);
}

const bench = startBenchRun({
  label: "bench recipient-page",
  stopping: "stopping the server and dropping the bench database…",
  cleanup,
  timeoutSeconds: TIMEOUT_SECONDS,
});

// ---------------------------------------------------------------------------------------------

/** Resolves to the exit code, 0 if none. */
async function main(): Promise<number | void> {
  if (!fs.existsSync(path.join(root, ".next", "BUILD_ID"))) {
    console.error("No production build (.next/BUILD_ID is missing): run npm run build first.");
    return 1;
  }

  // 1. Database, workspace and the test, with the app's own functions.
  const { name, url: databaseUrl } = await createBenchDatabase(config.adminUrl);
  benchDbName = name;
  let tokens: string[];
  {
    const database = await openDatabase({ url: databaseUrl, poolMax: 2 });
    try {
      await prepareDatabase(database);
      const { workspace } = await ensureUserWorkspace(database.db, "bench-trainer@example.com");
      await setPlan(database.db, workspace.id, "pro"); // more than the free plan's 5 seats
      const certificationId = await catalogCertificationId(database.db, "aws-clf-c02");
      if (!certificationId) throw new Error("the catalog seed has no aws-clf-c02");
      const domainIds = (
        await database.query<{ id: number }>("select id from domains where certification_id = $1 order by position", [certificationId])
      ).map((row) => row.id);
      const test = await createTest(database.db, workspace.id, createTestInput.parse({
        certification_id: certificationId,
        domains: domainIds,
        questions: config.questions,
        recipients: Array.from({ length: config.recipients }, (_, i) => ({ email: `bench-${i + 1}@example.com`, name: `Recipient ${i + 1}` })),
        send_email: false,
      }));
      tokens = test.recipients.map((r) => new URL(r.link).pathname.split("/").pop()!);
      console.log(`created database ${name}; test ${test.code}: ${test.questions} questions, ${tokens.length} recipients`);
    } finally {
      await database.close();
    }
  }

  // 2. The production build on a loopback port.
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // BENCH_NODE_ARGS: extra Node flags for the server, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? "").split(/\s+/).filter(Boolean);
  const started = startNextServer({ port, nodeArgs, keep: 40, env: { DATABASE_URL: databaseUrl, AUTH_URL: base } });
  server = started.proc;
  const { output } = started;

  const first = `${base}/t/${tokens[0]}`;
  const startedAt = performance.now();
  for (;;) {
    if (bench.exiting) return;
    if (server.exitCode !== null || server.signalCode !== null) throw new Error(`the app server exited before answering:\n${output.join("\n")}`);
    if (performance.now() - startedAt > 60_000) throw new Error(`the app server did not answer within 60 s:\n${output.join("\n")}`);
    try {
      const response = await fetch(first, { signal: AbortSignal.timeout(5000) });
      await response.arrayBuffer();
      if (response.status === 200) break;
      throw new Error(`GET /t/<token> answered ${response.status}`);
    } catch (error) {
      if ((error as Error).message.startsWith("GET /t/")) throw error;
      await sleep(200);
    }
  }
  console.log(`app server answering on ${base} after ${((performance.now() - startedAt) / 1000).toFixed(1)} s`);

  // 3. Start every recipient (the Start button's POST: a write, kept out of the measurement),
  //    then open each link once: the page must be the test (its first question), not the
  //    start page or an error page.
  let bytes = 0;
  for (const token of tokens) {
    const start = await fetch(`${base}/api/t/${token}/start`, { method: "POST", signal: AbortSignal.timeout(10_000) });
    if (start.status !== 200) throw new Error(`POST /api/t/${token.slice(0, 6)}…/start answered ${start.status}`);
    const response = await fetch(`${base}/t/${token}`, { signal: AbortSignal.timeout(10_000) });
    const html = await response.text();
    if (response.status !== 200 || !/Question (<!-- -->)?1(<!-- -->)? of (<!-- -->)?\d+/.test(html)) {
      throw new Error(`GET /t/${token.slice(0, 6)}… answered ${response.status} without the first question`);
    }
    bytes += html.length;
  }
  console.log(`started every recipient and opened all ${tokens.length} links once; page ≈ ${(bytes / tokens.length / 1024).toFixed(1)} KiB`);

  // 4. Load: round-robin over the tokens.
  let next = 0;
  const cpuBefore = cpuSeconds(server.pid);
  process.stdout.write(`measuring ${config.seconds} s with ${config.connections} connections… `);
  running = autocannon({
    url: base,
    connections: config.connections,
    duration: config.seconds,
    timeout: 10,
    requests: [
      {
        method: "GET",
        path: `/t/${tokens[0]}`,
        setupRequest: (request) => ({ ...request, path: `/t/${tokens[next++ % tokens.length]}` }),
      },
    ],
  });
  const result = await running;
  running = undefined;
  const cpuAfter = cpuSeconds(server.pid);
  console.log("done\n");

  const cpuPerRequest =
    cpuBefore !== undefined && cpuAfter !== undefined && result.requests.total > 0 ? ((cpuAfter - cpuBefore) * 1000) / result.requests.total : undefined;
  console.log(`GET /t/<token> over ${tokens.length} tokens (${config.questions} questions each), ${config.seconds} s, ${config.connections} connections, loopback`);
  console.log(`${os.cpus().length} CPUs, Node ${process.version}; npm start's server (production build) + PostgreSQL on the same machine`);
  console.log("");
  console.log(`requests:        ${result.requests.total} (${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts)`);
  console.log(`req/s:           mean ${result.requests.average.toFixed(1)} (stddev ${result.requests.stddev.toFixed(1)})`);
  console.log(
    `latency:         p50 ${result.latency.p50} ms, p90 ${result.latency.p90} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms (mean ${result.latency.average.toFixed(1)} ms)`,
  );
  console.log(`server CPU:      ${cpuPerRequest === undefined ? "n/a" : `${cpuPerRequest.toFixed(2)} ms per request`}`);
  if (result.non2xx > 0) {
    const codes = Object.entries(result.statusCodeStats)
      .filter(([code]) => !code.startsWith("2"))
      .map(([code, s]) => `${code}×${s.count}`)
      .join(", ");
    console.log(`non-2xx:         ${codes}`);
  }
}

await bench.finish(main);
