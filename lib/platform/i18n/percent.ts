import type { Locale } from "./locales";
import { intlLocale } from "./translator";

/**
 * A result's percent (0–100, already rounded to one decimal by the scorer) as every page and
 * e-mail a recipient or student reads writes it: "72.5%", "72,5 %" (German), "72,5 %" (French,
 * a narrow no-break space). One formatter, so the result page, the e-mail and the student area
 * never disagree on a score or a pass mark.
 */
export function formatPercent(locale: Locale, percent: number): string {
  return new Intl.NumberFormat(intlLocale(locale), { style: "percent", maximumFractionDigits: 1 }).format(percent / 100);
}
