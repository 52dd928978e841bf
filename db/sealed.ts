import { sql, type SQL } from "drizzle-orm";
import { rowsOf } from "./rows";
import type { Db } from "./types";

/**
 * The columns that hold a value sealed with the application key (lib/platform/security/sealing.ts)
 * and the purpose each is sealed for: the purpose is bound into the seal, so a sealed value
 * copied into another column does not open there. The sealing itself is handed in by the
 * caller (db/ does not hold the key).
 */
export const sealedColumns = [
  { table: "recipients", column: "token_sealed", purpose: "recipients.token", idType: "integer" },
  { table: "class_invitations", column: "token_sealed", purpose: "class_invitations.token", idType: "integer" },
  { table: "members", column: "token_sealed", purpose: "members.token", idType: "text" },
  { table: "webhook_endpoints", column: "secret_sealed", purpose: "webhook_endpoints.secret", idType: "text" },
  { table: "teams", column: "invite_code_sealed", purpose: "teams.invite_code", idType: "text" },
] as const;

export type SealPurpose = (typeof sealedColumns)[number]["purpose"];
export type Seal = (purpose: SealPurpose, plaintext: string) => string;

type SealedColumn = (typeof sealedColumns)[number];

const BATCH = 500;

/**
 * Walks a table in id order, `BATCH` rows at a time (keyset, so a row that stays as it was
 * is never read twice): `select` names the value to read as `value`, `where` which rows;
 * `rewrite` gives each row's new sealed value, written in one statement per batch.
 */
async function rewriteSealed(db: Db, column: SealedColumn, value: SQL, where: SQL, rewrite: (value: string) => string): Promise<number> {
  const table = sql.identifier(column.table);
  const target = sql.identifier(column.column);
  const idType = sql.raw(column.idType);
  let after: string | null = null;
  let count = 0;
  for (;;) {
    const batch: { id: string; value: string }[] = rowsOf<{ id: string; value: string }>(
      await db.execute(sql`
        select id::text as id, ${value} as value from ${table}
        where ${where} and (${after}::text is null or id > ${after}::${idType})
        order by id limit ${BATCH}`),
    );
    if (batch.length === 0) return count;
    const values = sql.join(
      batch.map((row) => sql`(${row.id}::text, ${rewrite(row.value)}::text)`),
      sql`, `,
    );
    await db.execute(sql`update ${table} as t set ${target} = v.sealed from (values ${values}) as v(id, sealed) where t.id = v.id::${idType}`);
    count += batch.length;
    after = batch[batch.length - 1].id;
  }
}

/**
 * The plaintext column each sealed column replaced (dropped by migration 0025), and whether the
 * table also keeps a hash. Tables sealed from their start (teams) are not here: they never held
 * a plaintext column, and may not exist yet when this step runs.
 */
const plaintextColumns: Partial<Record<SealedColumn["table"], { column: string; hashed: boolean }>> = {
  recipients: { column: "token", hashed: true },
  class_invitations: { column: "token", hashed: true },
  members: { column: "token", hashed: true },
  webhook_endpoints: { column: "secret", hashed: false },
};

/**
 * The data step of the upgrade to tokens at rest (run by db/migrate.ts after migration 0023
 * added the columns, before 0024 checks them and 0025 drops the plaintext): every row still
 * holding a plaintext token gets its SHA-256 (in SQL) and its sealed copy (here, in batches),
 * every webhook endpoint its sealed secret. Idempotent: only rows not done yet are touched,
 * so an upgrade interrupted half-way completes on the next start.
 */
export async function sealPlaintextColumns(db: Db, seal: Seal): Promise<Record<string, number>> {
  const sealed: Record<string, number> = {};
  for (const column of sealedColumns) {
    const plaintext = plaintextColumns[column.table];
    if (!plaintext) continue;
    const source = sql.identifier(plaintext.column);
    if (plaintext.hashed) {
      await db.execute(sql`update ${sql.identifier(column.table)} set token_hash = encode(sha256(convert_to(${source}, 'UTF8')), 'hex') where token_hash is null`);
    }
    sealed[column.table] = await rewriteSealed(db, column, sql`${source}`, sql`${sql.identifier(column.column)} is null`, (value) => seal(column.purpose, value));
  }
  return sealed;
}

/**
 * Key rotation: re-seals every sealed value that does not start with `currentPrefix` (the
 * format and key id of the key that seals now) with `reseal`, which opens it under its own
 * key and seals it under the current one. Afterwards the older keys open nothing still stored.
 */
export async function resealColumns(db: Db, currentPrefix: string, reseal: (purpose: SealPurpose, value: string) => string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const column of sealedColumns) {
    const target = sql.identifier(column.column);
    counts[column.table] = await rewriteSealed(db, column, sql`${target}`, sql`left(${target}, ${currentPrefix.length}) <> ${currentPrefix}`, (value) => reseal(column.purpose, value));
  }
  return counts;
}
