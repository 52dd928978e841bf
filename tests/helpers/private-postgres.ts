import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { freePort } from "./ports";
import os from "node:os";
import path from "node:path";

/**
 * A PostgreSQL cluster of the test's own, made with the machine's PostgreSQL binaries, run
 * as the `postgres` OS user, in a fresh temporary directory, on a free port of 127.0.0.1,
 * trust authentication. The shared server on 5432 is never touched: the outage test stops
 * and starts this one.
 */
export type PrivatePostgres = {
  url: string;
  stop(): void;
  start(): void;
  destroy(): void;
};

/** Why a private cluster cannot be made here, or undefined when it can. */
export function privatePostgresUnsupported(): string | undefined {
  if (process.platform !== "linux") return "needs Linux";
  if (process.getuid?.() !== 0) return "needs root, to run PostgreSQL as the postgres user";
  if (!binDir()) return "no /usr/lib/postgresql/*/bin/initdb";
  try {
    execFileSync("id", ["-u", "postgres"], { stdio: "ignore" });
  } catch {
    return "no postgres OS user";
  }
  return undefined;
}

function binDir(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!fs.existsSync(root)) return undefined;
  const versions = fs
    .readdirSync(root)
    .filter((v) => fs.existsSync(path.join(root, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], "bin") : undefined;
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = binDir()!;
  const uid = Number(execFileSync("id", ["-u", "postgres"]).toString().trim());
  const gid = Number(execFileSync("id", ["-g", "postgres"]).toString().trim());
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "outage-pg-"));
  fs.chownSync(dir, uid, gid);
  const data = path.join(dir, "data");
  const port = await freePort();
  const asPostgres = (program: string, args: string[]) =>
    execFileSync("runuser", ["-u", "postgres", "--", path.join(bin, program), ...args], { cwd: dir, stdio: "pipe", timeout: 60_000 });

  asPostgres("initdb", ["-D", data, "--auth=trust", "--username=postgres", "--encoding=UTF8", "--no-sync", "--no-instructions"]);
  // Only this cluster's port on loopback; the socket in its own directory; no fsync (a test).
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c fsync=off -c max_connections=50`;
  const start = () => asPostgres("pg_ctl", ["-D", data, "-o", options, "-l", path.join(dir, "server.log"), "-w", "-t", "30", "start"]);
  // Fast shutdown: clients are disconnected (57P01), as in a failover or a restart.
  const stop = () => asPostgres("pg_ctl", ["-D", data, "-m", "fast", "-w", "-t", "30", "stop"]);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    destroy() {
      try {
        asPostgres("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
      } catch {
        // already stopped
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
