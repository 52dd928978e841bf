/**
 * Helpers shared by the benchmark scripts in bench/: settings from the environment, the run's
 * life cycle (signals, overall timeout, clean-up, exit), child processes, loopback ports, CPU
 * time from /proc, the throw-away bench database and the report. No Next.js here: the scripts
 * run under plain Node (tsx).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import type http from "node:http";
import net from "node:net";
import path from "node:path";
import postgres from "postgres";
import { authSecret } from "@/lib/platform/security/auth-secret";

// ---------------------------------------------------------------------------------------------
// Settings

/**
 * An integer setting from the environment, `fallback` when unset or empty; anything else out of
 * [min, max] (or not an integer) ends the process with code 2. `max = Infinity`: no upper bound.
 */
export function intEnv(name: string, fallback: number, min = 1, max = Number.MAX_SAFE_INTEGER): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    const range = max === Infinity ? `>= ${min}` : `from ${min} to ${max}`;
    console.error(`${name} must be an integer ${range} (got "${raw}")`);
    process.exit(2);
  }
  return value;
}

// ---------------------------------------------------------------------------------------------
// Run: abort on a signal or the overall timeout, clean up once, exit.

export type BenchRun = {
  /** True once a signal or the overall timeout has started the abort: stop working, report nothing. */
  readonly exiting: boolean;
  /** Says why, runs the clean-up (for `graceMs` at the most) and exits with `code`; only the first call counts. */
  abort(reason: string, code: number): Promise<void>;
  /**
   * Runs `main`, then (unless an abort took over meanwhile) the clean-up, and exits: with the code
   * `main` returns (0 if none), or 1 after printing its error.
   */
  finish(main: () => Promise<number | void>): Promise<void>;
};

/**
 * Wires SIGINT/SIGTERM/SIGHUP (exit 130) and the overall timeout (exit 1) to an abort that runs
 * `cleanup`. Call it once, at load, before anything needs cleaning up. `cleanup` runs once at
 * the most: an abort during the clean-up at the end waits for that same clean-up.
 */
export function startBenchRun(options: {
  /** Names the run in the failure line: `<label> failed: …`. */
  label: string;
  /** What an abort does, printed after its reason. */
  stopping: string;
  cleanup: () => Promise<void>;
  timeoutSeconds: number;
  /** How long an abort waits for the clean-up before exiting anyway. */
  graceMs?: number;
}): BenchRun {
  const { label, stopping, timeoutSeconds, graceMs = 20_000 } = options;
  let exiting = false;
  let cleaning: Promise<void> | undefined;
  const cleanup = () => (cleaning ??= options.cleanup());

  async function abort(reason: string, code: number): Promise<void> {
    // npm/tsx forward a Ctrl-C as further signals: only the first one counts, the clean-up
    // it starts must not be cut short (it is bounded by the race below).
    if (exiting) return;
    exiting = true;
    console.error(`\n${reason}: ${stopping}`);
    await Promise.race([cleanup(), sleep(graceMs)]);
    process.exit(code);
  }

  for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.on(sig, () => void abort(`received ${sig}`, 130));
  }
  const hardTimeout = setTimeout(() => void abort(`overall timeout of ${timeoutSeconds} s reached`, 1), timeoutSeconds * 1000);

  return {
    get exiting() {
      return exiting;
    },
    abort,
    async finish(main) {
      let exitCode = 0;
      try {
        exitCode = (await main()) ?? 0;
      } catch (error) {
        // After a signal or the timeout, main() fails as what it uses goes away: nothing to report.
        if (!exiting) console.error(`\n${label} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        exitCode = 1;
      } finally {
        if (!exiting) {
          await cleanup();
          clearTimeout(hardTimeout);
          process.exit(exitCode);
        }
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Processes and ports

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A TCP port free on 127.0.0.1 right now (the system's pick for port 0). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Stops a child process this script started: SIGTERM, then SIGKILL if it has not exited 5 s
 * later; resolves once it has exited. `group`: the child was spawned detached, as the leader of
 * its own process group: the whole group is signalled, so any worker it forked stops with it.
 */
export async function stopProcess(proc: ChildProcess | undefined, group: boolean): Promise<void> {
  if (!proc || proc.exitCode !== null || proc.signalCode !== null || proc.pid === undefined) return;
  const pid = proc.pid;
  const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
  const signal = (sig: NodeJS.Signals) => {
    try {
      if (group) process.kill(-pid, sig);
      else proc.kill(sig);
    } catch {
      /* already gone */
    }
  };
  signal("SIGTERM");
  const timer = setTimeout(() => signal("SIGKILL"), 5000);
  await exited;
  clearTimeout(timer);
}

/** A listener that keeps the last `max` non-empty lines a child prints in `lines` (for error messages). */
export function keepLines(lines: string[], max: number): (chunk: Buffer) => void {
  return (chunk) => {
    for (const line of chunk.toString("utf8").split("\n")) if (line.trim()) lines.push(line);
    if (lines.length > max) lines.splice(0, lines.length - max);
  };
}

/**
 * `npm start`'s server (scripts/serve.mjs: Next.js behind the app's own HTTP server, as
 * deployed) over the existing production build on 127.0.0.1:`port`, spawned as the leader of
 * its own process group (stop it with `stopProcess(proc, true)`), with what every benchmark
 * gives it — NODE_ENV=production, the benchmark's own AUTH_SECRET (it derives the key that seals
 * links and webhook secrets, and the benchmark registers some in-process: the server must open
 * them), no API log, no telemetry — then `env`.
 * `output` keeps its last `keep` lines.
 */
export function startNextServer(options: { port: number; env: Record<string, string>; nodeArgs?: string[]; keep: number }): { proc: ChildProcess; output: string[] } {
  const output: string[] = [];
  const proc = spawn(process.execPath, [...(options.nodeArgs ?? []), "scripts/serve.mjs", "-p", String(options.port), "-H", "127.0.0.1"], {
    cwd: process.cwd(),
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NODE_ENV: "production" as const, AUTH_SECRET: authSecret(), API_LOG: "off", NEXT_TELEMETRY_DISABLED: "1", ...options.env },
  });
  const keep = keepLines(output, options.keep);
  proc.stdout?.on("data", keep);
  proc.stderr?.on("data", keep);
  return { proc, output };
}

/**
 * The life of a bare server (bench/bare-server.ts, bench/exam-bare-server.ts): kept-alive
 * connections, and on SIGTERM, SIGINT or the benchmark's IPC channel closing (it talks to us
 * over it only to notice when it goes away), the server and its pool closed, then exit.
 */
export function serveUntilStopped(server: http.Server, sql: postgres.Sql): void {
  server.keepAliveTimeout = 65_000;
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    server.close();
    server.closeAllConnections();
    await sql.end({ timeout: 2 }).catch(() => {});
    process.exit(0);
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
  process.once("disconnect", stop);
}

/** CPU seconds (user + system, all threads) a process has used so far; undefined off Linux or when unreadable. */
export function cpuSeconds(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may contain spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100; // clock ticks; USER_HZ is 100 on Linux
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// The bench database

function adminSql(adminUrl: string) {
  return postgres(adminUrl, { max: 1, onnotice: () => {}, connect_timeout: 10 });
}

/**
 * Creates a fresh database bench_<random hex> on the PostgreSQL server of `adminUrl`; returns its
 * name and URL (the admin URL with the database replaced). The caller records the name at once,
 * for its clean-up to drop it.
 */
export async function createBenchDatabase(adminUrl: string): Promise<{ name: string; url: string }> {
  const name = `bench_${randomBytes(6).toString("hex")}`;
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const admin = adminSql(adminUrl);
  try {
    await admin.unsafe(`create database "${name}"`);
  } finally {
    await admin.end({ timeout: 2 });
  }
  return { name, url: url.toString() };
}

/**
 * Drops a bench database, with force (its connections are closed), and says so. A failure is
 * printed (`could not drop database …`) and the clean-up goes on; with `rethrow`, it is thrown.
 */
export async function dropBenchDatabase(adminUrl: string, name: string, options: { rethrow?: boolean } = {}): Promise<void> {
  const admin = adminSql(adminUrl);
  try {
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
    console.log(`dropped database ${name}`);
  } catch (error) {
    if (options.rethrow) throw error;
    console.error(`could not drop database ${name}: ${(error as Error).message}`);
  } finally {
    await admin.end({ timeout: 2 }).catch(() => {});
  }
}

// ---------------------------------------------------------------------------------------------
// Report

/** A plain-text table: header, rule, rows; the first `leftColumns` columns left-aligned, the others right-aligned. */
export function textTable(header: string[], rows: string[][], leftColumns = 1): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const fmt = (cells: string[]) => cells.map((c, i) => (i < leftColumns ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  return [fmt(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(fmt)].join("\n");
}

/** Writes `report` as bench/results/<benchmark>-<startedAt>.json (below the working directory) and says where. */
export function writeResults(benchmark: string, startedAt: Date, report: object): void {
  const root = process.cwd();
  const resultsDir = path.join(root, "bench", "results");
  fs.mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, `${benchmark}-${startedAt.toISOString().replace(/[:.]/g, "-")}.json`);
  fs.writeFileSync(file, JSON.stringify(report, null, 2) + "\n");
  console.log(`\nwrote ${path.relative(root, file)}`);
}
