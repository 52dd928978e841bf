import type { Database } from "@/db/types";


/** One stored value, as text: what a copy of the database shows of it. */
export type StoredValue = { table: string; column: string; value: string; row: Record<string, unknown> };

/**
 * Every value of every column of every table of the app's schema, as text (each row through
 * `to_jsonb`, so no column type is left out): what a read-only copy of the database hands over.
 */
export async function everyTextValue(database: Database): Promise<StoredValue[]> {
  const tables = await database.query<{ table_name: string }>(
    `select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  );
  const values: StoredValue[] = [];
  for (const { table_name: table } of tables) {
    const rows = await database.query<{ row: Record<string, unknown> | string }>(`select to_jsonb(t) as row from "${table}" t`);
    for (const { row: raw } of rows) {
      const row = typeof raw === "string" ? (JSON.parse(raw) as Record<string, unknown>) : raw;
      for (const [column, value] of Object.entries(row)) {
        if (value !== null) values.push({ table, column, value: typeof value === "string" ? value : JSON.stringify(value), row });
      }
    }
  }
  return values;
}
