import type { Locale } from "@/lib/platform/i18n/locales";
import { intlLocale } from "@/lib/platform/i18n/translator";

/** A day as the student area writes it, in the student's language: "23 Nov 2026", "23.11.2026", "23 nov. 2026"… (UTC, as components/format/date.ts). */
export function dayIn(locale: Locale, when: string | Date): string {
  return new Intl.DateTimeFormat(intlLocale(locale), { dateStyle: "medium", timeZone: "UTC" }).format(new Date(when));
}
