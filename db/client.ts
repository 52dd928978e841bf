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

async function openPostgres(url: string, poolMax = Number(process.env.DATABASE_POOL_MAX ?? 10)): Promise<Database> {
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const sql = postgres(url, { max: poolMax, onnotice: () => {}, connection: { application_name: "certify-ctf" } });
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
