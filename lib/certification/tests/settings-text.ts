import type { Test } from "@/db/schema";
import { defaultLocale, type Locale } from "@/lib/platform/i18n/locales";
import { translator, utcDateTimeIn } from "@/lib/platform/i18n/translator";

/**
 * The settings a recipient needs to know before starting, in words, for the e-mails and the
 * start page alike, in the recipient's language (English by default: the trainer area). Times
 * are written in UTC ("1 Dec 2026, 18:00 UTC"), as every date the app shows
 * (components/format/date.ts): a server's render and a reader's mail client agree.
 */

export function utcDateTime(when: Date, locale: Locale = defaultLocale): string {
  return utcDateTimeIn(locale, when);
}

/** "30 minutes", "1 hour", "2 hours"; "90 minutes" (whole hours only as hours). */
export function minutesText(minutes: number, locale: Locale = defaultLocale): string {
  const t = translator(locale, "common");
  return minutes % 60 === 0 ? t("duration.hours", { hours: minutes / 60 }) : t("duration.minutes", { minutes });
}

/** "Time limit: 30 minutes from when you press Start", "Opens 1 Dec 2026, 18:00 UTC", "Closes …"; none without settings. */
export function settingsLines(test: Pick<Test, "timeLimitMinutes" | "opensAt" | "closesAt">, locale: Locale = defaultLocale): string[] {
  const t = translator(locale, "common");
  const lines: string[] = [];
  if (test.timeLimitMinutes !== null) lines.push(t("settings.timeLimit", { duration: minutesText(test.timeLimitMinutes, locale) }));
  if (test.opensAt) lines.push(t("settings.opens", { when: utcDateTime(test.opensAt, locale) }));
  if (test.closesAt) lines.push(t("settings.closes", { when: utcDateTime(test.closesAt, locale) }));
  return lines;
}
