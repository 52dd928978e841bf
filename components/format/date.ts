/**
 * The one way the UI writes a date: "23 Nov 2026, 02:13 UTC". UTC, so the server's render and
 * the browser's agree; a page that also shows the viewer's own zone names it.
 */

const formats = {
  dateTime: new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }),
  withSeconds: new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "medium", timeZone: "UTC" }),
  date: new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeZone: "UTC" }),
};

type When = string | Date | null | undefined;

/** "23 Nov 2026, 02:13 UTC" (with `seconds`: "23 Nov 2026, 02:13:07 UTC"); `missing` when there is no time. */
export function formatDateTime(when: When, { seconds = false, missing = "—" }: { seconds?: boolean; missing?: string } = {}): string {
  if (!when) return missing;
  return `${(seconds ? formats.withSeconds : formats.dateTime).format(new Date(when))} UTC`;
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
