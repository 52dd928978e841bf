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

/**
 * One line of display text that others read as a name or a heading (team names, challenge tags,
 * announcement titles): no control (\p{Cc}, line breaks included), format (\p{Cf}: zero-width
 * characters, soft hyphen, direction marks, overrides and isolates, tag characters), line or
 * paragraph separator, or unpaired surrogate; and at least one letter, number, symbol or
 * punctuation mark that shows, once combining marks and the blank-looking fillers (Hangul
 * fillers U+115F U+1160 U+3164 U+FFA0, Braille blank U+2800) are set aside. Such text cannot
 * pass for empty, for another name, or read in another direction.
 */
export function isDisplayLine(value: string): boolean {
  return !HIDDEN_OR_BREAKING.test(value) && VISIBLE.test(value.replace(BLANK_LOOKING, ""));
}

/** What a value that fails isDisplayLine is told. */
export const DISPLAY_LINE_MESSAGE = "Use visible text on one line: no line breaks, control, invisible or text-direction characters.";

const HIDDEN_OR_BREAKING = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/u;
const BLANK_LOOKING = /[\p{M}\u115F\u1160\u3164\uFFA0\u2800]/gu;
const VISIBLE = /[\p{L}\p{N}\p{S}\p{P}]/u;

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
