import type { Database } from "@/db/types";


/**
 * Row counts of every table of the app, as one row — what "a refused request writes nothing"
 * compares before and after. One statement (a subquery per table), called thousands of times by
 * the shared route suites: on PGlite it is prepared once (its one connection keeps it, and
 * planning the 40-odd subqueries again each time cost more than running them); postgres.js
 * prepares it on each pooled connection by itself. `skip` names tables written by design on
 * every call (the limiters' logs).
 */
export function rowCounter(database: Database, skip: (table: string) => boolean): () => Promise<Record<string, number>> {
  let statement: Promise<string> | undefined;
  const prepare = async () => {
    const text = `select ${(await appTables(database))
      .filter((name) => !skip(name))
      .map((name) => `(select count(*) from public."${name}")::int as "${name}"`)
      .join(", ")}`;
    if (database.kind !== "pglite") return text;
    await database.query(`prepare row_counts as ${text}`);
    return "execute row_counts";
  };
  return async () => {
    statement ??= prepare();
    const [row] = await database.query<Record<string, number>>(await statement);
    return row;
  };
}

/** The app's tables (schema `public`), by name. */
export async function appTables(database: Pick<Database, "query">): Promise<string[]> {
  const tables = await database.query<{ name: string }>(
    "select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1",
  );
  return tables.map((table) => table.name);
}

/** The rate limiters' own bookkeeping: counting a request, refused or not, is their job, not a write. */
export const isLimiterTable = (name: string) => name.startsWith("rate_limit");
