/**
 * Date-time fields of every form. A `datetime-local` field is read in the browser's own time
 * zone, which the form names (`ZoneNote`), and sent as ISO 8601 with that zone's offset on
 * that day; pages show times in UTC (components/format/date.ts), and a competition's window in
 * the viewer's zone beside it.
 */

const localInput = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?$/;
const pad = (value: number) => String(value).padStart(2, "0");

/** The offset of this machine's zone at `date`: "+01:00", "-05:30", "+00:00". */
function offsetOf(date: Date): string {
  const minutes = -date.getTimezoneOffset();
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? "-" : "+"}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/**
 * "2026-12-01T18:00" (a datetime-local value, in this machine's zone) → "2026-12-01T18:00:00+01:00"
 * (the same instant with the offset that zone has on that day); null when blank, malformed,
 * or not a time of that zone (a day that does not exist, an hour skipped by a clock change).
 */
export function localInputToIso(value: string): string | null {
  const match = localInput.exec(value.trim());
  if (!match) return null;
  const [, y, mo, d, h, mi, s] = match.map(Number);
  const seconds = Number.isNaN(s) ? 0 : s;
  const date = new Date(y, mo - 1, d, h, mi, seconds);
  // The Date constructor rolls 2026-02-30 over to March and 02:30 on a spring-forward day to 03:30.
  if (date.getMonth() !== mo - 1 || date.getDate() !== d || date.getHours() !== h || date.getMinutes() !== mi) return null;
  return `${y}-${pad(mo)}-${pad(d)}T${pad(h)}:${pad(mi)}:${pad(seconds)}${offsetOf(date)}`;
}

/** An ISO time → the value of a datetime-local field showing it in this machine's zone ("2026-12-01T19:00"). */
export function isoToLocalInput(iso: string): string {
  const date = new Date(iso);
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** This machine's zone as the forms name it: "Europe/Paris, UTC+01:00" (the offset it has at `at`). */
export function localZoneLabel(at: Date = new Date()): string {
  const name = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return `${name}, UTC${offsetOf(at)}`;
}

/**
 * A field's value as a request body holds it: blank → null, a time of this zone → its ISO
 * instant, anything else as typed (the body's schema then says what is wrong with it).
 */
export function localInputToBody(value: string): string | null {
  if (value.trim() === "") return null;
  return localInputToIso(value) ?? value;
}
