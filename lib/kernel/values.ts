/**
 * Value rules of the edge with no dependency at all, so that contracts and schemas can be
 * imported by the browser (forms validate with the same schemas) as well as by the server.
 */

/** Largest JSON body the API accepts. */
export const MAX_BODY_BYTES = 1_000_000;

/** Largest value of a PostgreSQL `integer` column: ids and counts in bodies stay within it. */
export const MAX_INT32 = 2_147_483_647;

/**
 * Whether PostgreSQL can store this string in `text` and `jsonb`: no NUL character and no
 * unpaired UTF-16 surrogate (JSON may carry both as `\u0000` and `\ud800`).
 */
export function isStorableText(value: string): boolean {
  return !value.includes("\u0000") && value.isWellFormed();
}

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/**
 * Whether a value can be an id made by `newId(prefix)` (lib/kernel/ids.ts). Lookups by an id from a
 * URL check this first: anything else cannot name a row, and never reaches the database.
 */
export function isIdShaped(value: string, prefix: string): boolean {
  return value.length === prefix.length + 27 && value.startsWith(`${prefix}_`) && ULID.test(value.slice(prefix.length + 1));
}

/** 10485760 → "10 MB", 1536 → "1.5 KB" (binary units, as file managers show them). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} byte${bytes === 1 ? "" : "s"}`;
  const [value, unit] = bytes < 1024 * 1024 ? [bytes / 1024, "KB"] : [bytes / (1024 * 1024), "MB"];
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ${unit}`;
}
