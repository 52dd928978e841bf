import fs from "node:fs";
import path from "node:path";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import * as schema from "./schema";

/** The one Drizzle type the domain sees, whichever driver is underneath. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export type Database = {
  db: Db;
  kind: "pglite" | "postgres";
  /** Raw SQL returning rows, prepared where the driver can: hides `{ rows }` vs array. */
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** LISTEN on a channel; resolves to the function that stops listening. */
  listen(channel: string, onNotify: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
};

export type OpenOptions = {
  /** A postgres:// URL; when absent, PGlite is used. */
  url?: string;
  /** PGlite data directory; "memory://" keeps it in memory. */
  dataDir?: string;
  /** postgres.js pool size. */
  poolMax?: number;
};

export async function openDatabase(options: OpenOptions = {}): Promise<Database> {
  return options.url ? openPostgres(options.url, options.poolMax) : openPglite(options.dataDir ?? defaultDataDir());
}

/**
 * The pool's behaviour when the server is slow or gone, all driver settings (see README):
 * a connection attempt gives up after DATABASE_CONNECT_TIMEOUT seconds; the server cancels
 * any statement running past DATABASE_STATEMENT_TIMEOUT_MS (57014 → 503); idle connections
 * close after a minute, so a connection a failover or a NAT silently dropped is not kept;
 * and reconnection waits at most half a second (postgres.js alone grows that wait to 20 s
 * while the server is down, and every query queued behind a closed connection waits it out).
 * max_lifetime keeps the driver's default (30–60 min, spread so connections do not all
 * recycle at once).
 */
export function postgresSettings(env: Record<string, string | undefined> = process.env) {
  return {
    connect_timeout: positiveNumber(env, "DATABASE_CONNECT_TIMEOUT", 2),
    idle_timeout: 60,
    backoff: (retries: number) => Math.min(0.05 * 2 ** retries, 0.5) * (0.5 + Math.random() / 2),
    statement_timeout: positiveNumber(env, "DATABASE_STATEMENT_TIMEOUT_MS", 5_000),
  };
}

function positiveNumber(env: Record<string, string | undefined>, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number (got "${raw}").`);
  return value;
}

async function openPostgres(url: string, poolMax = Number(process.env.DATABASE_POOL_MAX ?? 10)): Promise<Database> {
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const { statement_timeout, ...timeouts } = postgresSettings();
  const sql = postgres(url, {
    max: poolMax,
    ...timeouts,
    onnotice: () => {},
    // Startup parameters: the server applies statement_timeout to every statement of the session.
    connection: { application_name: "certify-ctf", statement_timeout: Math.round(statement_timeout) },
  });
  const db = drizzle({ client: sql, schema }) as unknown as Db;
  return {
    db,
    kind: "postgres",
    async query<T>(text: string, params: unknown[] = []) {
      const rows = await sql.unsafe(text, params as never[], { prepare: true });
      return rows as unknown as T[];
    },
    async listen(channel, onNotify) {
      const { unlisten } = await sql.listen(channel, () => onNotify());
      return unlisten;
    },
    close: () => sql.end({ timeout: 5 }),
  };
}

export function defaultDataDir(): string {
  return process.env.PGLITE_DATA_DIR ?? path.join(process.cwd(), ".data", "pglite");
}

async function openPglite(dataDir: string): Promise<Database> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const release = dataDir.startsWith("memory://") ? () => {} : lockDataDir(dataDir);
  const client = await PGlite.create(dataDir);
  const db = drizzle({ client, schema }) as unknown as Db;
  return {
    db,
    kind: "pglite",
    async query<T>(text: string, params: unknown[] = []) {
      const result = await client.query<T>(text, params);
      return result.rows;
    },
    async listen(channel, onNotify) {
      const unlisten = await client.listen(channel, () => onNotify());
      return unlisten;
    },
    async close() {
      await client.close();
      release();
    },
  };
}

/**
 * PGlite is one process's database: a second process opening the same directory would
 * corrupt it. A pid file refuses that with a clear message instead.
 */
function lockDataDir(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockFile = path.join(path.dirname(dataDir), `${path.basename(dataDir)}.pid`);
  try {
    const holder = Number(fs.readFileSync(lockFile, "utf8"));
    if (holder && holder !== process.pid && isAlive(holder)) {
      throw new Error(
        `The embedded database ${dataDir} is in use by process ${holder}. Stop that process, or set DATABASE_URL to use PostgreSQL.`,
      );
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  fs.writeFileSync(lockFile, String(process.pid));
  return () => fs.rmSync(lockFile, { force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
