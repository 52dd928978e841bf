import type { Locale } from "@/lib/platform/i18n/locales";

/**
 * The one way the UI writes a date: "23 Nov 2026, 02:13 UTC". UTC, so the server's render and
 * the browser's agree; a page that also shows the viewer's own zone names it. The trainer area
 * writes English; a recipient's page passes its `locale` ("27.11.2026, 18:00 UTC" in German).
 */

const formats = {
  dateTime: new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }),
  withSeconds: new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "medium", timeZone: "UTC" }),
  date: new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeZone: "UTC" }),
};

/**
 * The other locales' formats, made on first use. English stays en-GB, as lib/platform/i18n/translator.ts's
 * intlLocale says; not imported from there, which would put every locale's messages in the bundle.
 */
const localeFormats = new Map<string, Intl.DateTimeFormat>();
function dateTimeFormat(locale: Locale | undefined, seconds: boolean): Intl.DateTimeFormat {
  if (!locale || locale === "en") return seconds ? formats.withSeconds : formats.dateTime;
  const key = `${locale}:${seconds}`;
  let format = localeFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: seconds ? "medium" : "short", timeZone: "UTC" });
    localeFormats.set(key, format);
  }
  return format;
}

type When = string | Date | null | undefined;

/** "23 Nov 2026, 02:13 UTC" (with `seconds`: "23 Nov 2026, 02:13:07 UTC"); `missing` when there is no time; English unless a `locale` is given. */
export function formatDateTime(
  when: When,
  { seconds = false, missing = "—", locale }: { seconds?: boolean; missing?: string; locale?: Locale } = {},
): string {
  if (!when) return missing;
  return `${dateTimeFormat(locale, seconds).format(new Date(when))} UTC`;
}

/** "23 Nov 2026": a day, where the hour does not matter (the day in UTC). */
export function formatDate(when: string | Date): string {
  return formats.date.format(new Date(when));
}

/**
 * "1 Dec 2026, 18:00 – 2 Dec 2026, 18:00 UTC", or "1 Dec 2026, 18:00 – 20:00 UTC" within one
 * day; in another zone the zone is named instead: "1 Dec 2026, 19:00 – 21:00 (Europe/Paris)".
 */
export function formatWindow(startsAt: string, endsAt: string, timeZone = "UTC"): string {
  const day = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeZone });
  const full = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone });
  const time = new Intl.DateTimeFormat("en-GB", { timeStyle: "short", timeZone });
  const start = new Date(startsAt);
  const end = new Date(endsAt);
  const sameDay = day.format(start) === day.format(end);
  return `${full.format(start)} – ${sameDay ? time.format(end) : full.format(end)} ${timeZone === "UTC" ? "UTC" : `(${timeZone})`}`;
}
