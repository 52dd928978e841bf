import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type { Sql } from "postgres";
import * as schema from "./schema";
/** The one Drizzle type the domain sees, whichever driver is underneath. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export type Database = {
  db: Db;
  kind: "pglite" | "postgres";
  /** `db` goes through a transaction-mode pooler: no named prepared statements, no session state. */
  pooled: boolean;
  /** Raw SQL returning rows, prepared where the driver can: hides `{ rows }` vs array. */
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** LISTEN on a channel (on the direct connection); resolves to the function that stops listening. */
  listen(channel: string, onNotify: () => void): Promise<() => Promise<void>>;
  /**
   * Runs `work` with a database whose connections are real server sessions (the direct URL
   * when one is configured): session-level advisory locks and migrations need one. On PGlite,
   * and on PostgreSQL without a direct URL, it is the same database.
   */
  direct<T>(work: (session: DirectSession) => Promise<T>): Promise<T>;
  /** PGlite only: a copy of the whole database, which `openDatabase({ loadDataDir })` opens again. */
  dump?(): Promise<Blob>;
  close(): Promise<void>;
};

/** A pool of direct connections (postgres.js), for work that needs server sessions. */
export type DirectSession = { db: Db; sql: Sql | undefined };

export type OpenOptions = {
  /** A postgres:// URL; when absent, PGlite is used. */
  url?: string;
  /** A postgres:// URL of the same database, not through a pooler: LISTEN, migrations. Default `url`. */
  directUrl?: string;
  /** `url` is a transaction-mode pooler (PgBouncer): no named prepared statements through it. */
  pooled?: boolean;
  /** PGlite data directory; "memory://" keeps it in memory. */
  dataDir?: string;
  /** PGlite: start from this copy (`Database.dump()`) instead of an empty cluster (tests start from a migrated one). */
  loadDataDir?: Blob;
  /** postgres.js pool size. */
  poolMax?: number;
};
