import type { SQL } from "drizzle-orm";
import type { Db } from "./types";

/**
 * Hot statements as prepared statements, through whichever driver `db` (or a transaction of
 * it) runs on: postgres.js sends a named statement (parsed and planned once per connection,
 * then only Bind/Execute), PGlite its extended protocol. The text is hand-written SQL with
 * `$n` parameters, so there is no query building per call either (Drizzle builds its
 * statements at run time; see bench/README.md, "Where the time goes"). Rows come back as the
 * driver parses them: snake_case columns, jsonb parsed, but timestamps differ (Drizzle makes
 * postgres.js pass them through as text, PGlite gives Date) — send and select times as
 * ISO text or epoch milliseconds.
 *
 * Through a transaction-mode pooler (`pooled`) named statements cannot work: such databases
 * are marked at opening (`sendUnprepared`) and their statements go unnamed, still with bound
 * parameters. The mark is on Drizzle's dialect object, which a database shares with its
 * transactions.
 */
type DriverClient =
  | { unsafe(text: string, params: unknown[], options: { prepare: boolean }): Promise<unknown> }
  | { query(text: string, params: unknown[]): Promise<{ rows: unknown[] }> };

type Internals = { session: { client: DriverClient }; dialect: { sqlToQuery(statement: SQL): { sql: string; params: unknown[] } } };

const unprepared = new WeakSet<object>();

/** Called by openDatabase for a database behind a transaction-mode pooler. */
export function sendUnprepared(db: Db): void {
  unprepared.add((db as unknown as Internals).dialect);
}

/** The identity of a database that its transactions share: caches of what a database holds key on it. */
export function databaseKey(db: Db): object {
  return (db as unknown as Internals).dialect;
}

export async function preparedQuery<T>(db: Db, text: string, params: unknown[]): Promise<T[]> {
  const { session, dialect } = db as unknown as Internals;
  const client = session.client;
  if ("unsafe" in client) return (await client.unsafe(text, params, { prepare: !unprepared.has(dialect) })) as T[];
  return (await client.query(text, params)).rows as T[];
}

/**
 * A Drizzle `sql` template run as a prepared statement: rendered by the dialect to `$n` text
 * (the same text for the same template, so postgres.js reuses its named statement), then sent
 * as `preparedQuery` does.
 */
export function preparedSql<T>(db: Db, statement: SQL): Promise<T[]> {
  const { sql: text, params } = (db as unknown as Internals).dialect.sqlToQuery(statement);
  return preparedQuery<T>(db, text, params);
}
