import { appTables } from "./row-counts";
import type { Database } from "@/db/types";

/**
 * What a test database starts as: the migrated and seeded database of ./global-setup.ts. A test
 * file's database is put back to it (`resetSql`) instead of being made anew: every table
 * emptied, the rows the template has (the catalog) copied back from the schema
 * `test_template`, which `keepTemplate` fills once, and every sequence where it was.
 */
export type Template = { tables: string[]; seeded: string[]; sequences: { name: string; value: string; called: boolean }[] };

const TEMPLATE_SCHEMA = "test_template";

/** Reads the template database's tables, rows and sequences, and copies its rows aside (in the same database). */
export async function keepTemplate(database: Pick<Database, "query">): Promise<Template> {
  const tables = await appTables(database);
  const seeded: string[] = [];
  for (const name of tables) {
    const [row] = await database.query<{ any: boolean }>(`select exists (select from public."${name}") as any`);
    if (row.any) seeded.push(name);
  }
  await database.query(`create schema ${TEMPLATE_SCHEMA}`);
  for (const name of seeded) await database.query(`create table ${TEMPLATE_SCHEMA}."${name}" as table public."${name}"`);
  const sequences: Template["sequences"] = [];
  for (const { name } of await database.query<{ name: string }>("select sequence_name as name from information_schema.sequences where sequence_schema = 'public' order by 1")) {
    const [state] = await database.query<{ value: string; called: boolean }>(`select last_value::text as value, is_called as called from public."${name}"`);
    sequences.push({ name, ...state });
  }
  return { tables, seeded, sequences };
}

/** One script that puts a database made from the template back as the template was (its rows; not its sessions). */
export function resetSql(template: Template): string {
  return [
    `truncate table ${template.tables.map((name) => `public."${name}"`).join(", ")} cascade;`,
    ...template.seeded.map((name) => `insert into public."${name}" overriding system value select * from ${TEMPLATE_SCHEMA}."${name}";`),
    ...template.sequences.map((sequence) => `select setval('public."${sequence.name}"', ${sequence.value}, ${sequence.called});`),
  ].join("\n");
}
