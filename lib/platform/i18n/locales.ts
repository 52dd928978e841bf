import { locales, testLanguages } from "@/db/schema/statuses";

/**
 * The languages of what recipients and students read (pages, e-mails, the certificate): English,
 * German, French and Spanish. The trainer area stays English. Questions stay in the language they
 * were written in.
 */
export { locales, testLanguages };
export type Locale = (typeof locales)[number];
export type TestLanguage = (typeof testLanguages)[number];

export const defaultLocale: Locale = "en";

/** Each language in its own words, for the trainer's choice of a test's or a workspace's language. */
export const localeNames: Record<Locale, string> = { en: "English", de: "Deutsch (German)", fr: "Français (French)", es: "Español (Spanish)" };

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (locales as readonly string[]).includes(value);
}

/**
 * The best of our locales for an `Accept-Language` header (RFC 9110: tags with optional
 * q-weights, e.g. "de-CH,de;q=0.9,en;q=0.8"): the highest-weighted tag whose primary language we
 * speak; English when none matches, the header is absent or unreadable. Linear in the header.
 */
export function negotiateLocale(acceptLanguage: string | null | undefined): Locale {
  if (!acceptLanguage) return defaultLocale;
  let best: { locale: Locale; q: number; order: number } | undefined;
  const ranges = acceptLanguage.slice(0, 1000).split(",");
  ranges.forEach((range, order) => {
    const [tag, ...params] = range.trim().split(";");
    const primary = tag.trim().toLowerCase().split("-")[0];
    if (!isLocale(primary)) return;
    const qParam = params.map((param) => param.trim()).find((param) => param.toLowerCase().startsWith("q="));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (!Number.isFinite(q) || q <= 0 || q > 1) return;
    if (!best || q > best.q) best = { locale: primary, q, order };
  });
  return best?.locale ?? defaultLocale;
}

/** The locale of a recipient's page: the test's fixed language, or their browser's. */
export function pageLocale(language: TestLanguage | undefined, acceptLanguage: string | null | undefined): Locale {
  return language && language !== "auto" ? language : negotiateLocale(acceptLanguage);
}

/** The locale of an e-mail about a test: its fixed language, or the workspace's default (an e-mail has no browser to ask). */
export function mailLocale(language: TestLanguage, workspaceDefault: Locale): Locale {
  return language === "auto" ? workspaceDefault : language;
}
