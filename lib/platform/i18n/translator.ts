import { createTranslator } from "next-intl";
import type { Locale } from "./locales";
import { messages, type Namespace } from "./messages";

/**
 * A translator outside React (e-mails, the certificate's PDF, texts built on the server):
 * `translator("de", "emails")("invitation.subject", { workspace })`. Dates and numbers are
 * formatted in UTC, as everything the app writes (a server's render and a reader agree).
 */
export function translator<N extends Namespace>(locale: Locale, namespace: N) {
  return createTranslator({ locale, messages: messages[locale], namespace, timeZone: "UTC" });
}

/** The `Intl` locale of each of ours: English dates as written in Europe ("27 Nov 2026, 18:00"), as the app always wrote them. */
export const intlLocale = (locale: Locale) => (locale === "en" ? "en-GB" : locale);

/** A date and time in the locale's words, in UTC: "27 Nov 2026, 18:00 UTC", "27.11.2026, 18:00 UTC", … */
export function utcDateTimeIn(locale: Locale, when: Date): string {
  return `${new Intl.DateTimeFormat(intlLocale(locale), { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }).format(when)} UTC`;
}
