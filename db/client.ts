import fs from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { sendUnprepared } from "./prepared";
import * as schema from "./schema";
import type { Database, Db, DirectSession, OpenOptions } from "./types";

/**
 * What the driver is told besides where the database is: db/ reads no configuration, so the
 * caller hands these in (lib/platform/database.ts takes them from lib/kernel/config).
 */
export type DriverSettings = {
  /** DATABASE_CONNECT_TIMEOUT. */
  connectTimeoutSeconds: number;
  /** DATABASE_STATEMENT_TIMEOUT_MS. */
  statementTimeoutMs: number;
  /** postgres.js pool size when `OpenOptions.poolMax` is not given. */
  poolMax: number;
  /** PGlite data directory when `OpenOptions.dataDir` is not given. */
  dataDir: string;
};

/** Opens the database `options` name, with the driver `settings`. */
export async function openDatabase(options: OpenOptions, settings: DriverSettings): Promise<Database> {
  return options.url ? openPostgres(options, settings) : openPglite(options.dataDir ?? settings.dataDir, options.loadDataDir);
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
export function postgresDriverSettings(settings: Pick<DriverSettings, "connectTimeoutSeconds" | "statementTimeoutMs">) {
  return {
    connect_timeout: settings.connectTimeoutSeconds,
    idle_timeout: 60,
    backoff: (retries: number) => Math.min(0.05 * 2 ** retries, 0.5) * (0.5 + Math.random() / 2),
    statement_timeout: settings.statementTimeoutMs,
  };
}

/**
 * PostgreSQL through postgres.js. With `pooled`, `url` is a transaction-mode pooler
 * (PgBouncer, Supavisor, …) that hands each transaction to any server connection: named
 * prepared statements (postgres.js's default) would be prepared on one server connection
 * and executed on another ("prepared statement … does not exist"), so every statement is
 * sent unnamed (`prepare: false`, still with bound parameters), and a pooler refuses unknown
 * startup parameters, so `statement_timeout` is not sent (set it on the role instead:
 * `ALTER ROLE … SET statement_timeout = '5s'`). LISTEN and session-level advisory locks
 * cannot work through such a pooler at all: they use `directUrl` (default `url`) through a
 * pool of their own (`application_name` certify-ctf-direct).
 */
async function openPostgres(options: OpenOptions, settings: DriverSettings): Promise<Database> {
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const { statement_timeout, ...timeouts } = postgresDriverSettings(settings);
  const pooled = options.pooled ?? false;
  if (pooled && (!options.directUrl || options.directUrl === options.url)) {
    throw new Error("A pooled DATABASE_URL needs DATABASE_DIRECT_URL (LISTEN and migrations).");
  }
  const connect = (url: string, max: number, applicationName: string, throughPooler: boolean) =>
    postgres(url, {
      max,
      ...timeouts,
      prepare: !throughPooler,
      onnotice: () => {},
      // Startup parameters: the server applies statement_timeout to every statement of the session.
      connection: throughPooler
        ? { application_name: applicationName }
        : { application_name: applicationName, statement_timeout: Math.round(statement_timeout) },
    });
  const sql = connect(options.url!, options.poolMax ?? settings.poolMax, "certify-ctf", pooled);
  const db = drizzle({ client: sql, schema }) as unknown as Db;
  if (pooled) sendUnprepared(db);

  // A small pool of its own, opened on first use (start-up, LISTEN): two connections, one
  // holding the migration lock while the other migrates — never waiting on the app's pool
  // (with DATABASE_POOL_MAX=1 the lock would take its only connection). Idle ones close
  // after a minute; postgres.js gives LISTEN a dedicated connection besides.
  let direct: DirectSession | undefined;
  const directSession = () => {
    if (direct) return direct;
    const directSql = connect(options.directUrl ?? options.url!, 2, "certify-ctf-direct", false);
    direct = { db: drizzle({ client: directSql, schema }) as unknown as Db, sql: directSql };
    return direct;
  };

  return {
    db,
    kind: "postgres",
    pooled,
    async query<T>(text: string, params: unknown[] = []) {
      const rows = await sql.unsafe(text, params as never[], { prepare: !pooled });
      return rows as unknown as T[];
    },
    async listen(channel, onNotify) {
      const { unlisten } = await directSession().sql!.listen(channel, () => onNotify());
      return unlisten;
    },
    direct: (work) => work(directSession()),
    async close() {
      await Promise.all([sql.end({ timeout: 5 }), direct?.sql?.end({ timeout: 5 })]);
    },
  };
}

async function openPglite(dataDir: string, loadDataDir?: Blob): Promise<Database> {
  const { PGlite } = await import("@electric-sql/pglite");
  const release = dataDir.startsWith("memory://") ? () => {} : lockDataDir(dataDir);
  const client = await PGlite.create(dataDir, loadDataDir ? { loadDataDir } : {});
  return pgliteDatabase(client, async () => {
    await client.close();
    release();
  });
}

/**
 * A running PGlite as the app's `Database`; `close` is what closing it does (the test suite
 * hands a worker's PGlite back to its pool instead of closing it: tests/helpers/db.ts).
 */
export async function pgliteDatabase(client: PGlite, close: () => Promise<void>): Promise<Database> {
  const { drizzle } = await import("drizzle-orm/pglite");
  const db = drizzle({ client, schema }) as unknown as Db;
  return {
    db,
    kind: "pglite",
    pooled: false,
    async query<T>(text: string, params: unknown[] = []) {
      const result = await client.query<T>(text, params);
      return result.rows;
    },
    async listen(channel, onNotify) {
      const unlisten = await client.listen(channel, () => onNotify());
      return unlisten;
    },
    direct: (work) => work({ db, sql: undefined }),
    dump: () => client.dumpDataDir("none"),
    close,
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
