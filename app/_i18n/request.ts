import { headers } from "next/headers";
import { getRequestConfig } from "next-intl/server";
import { defaultLocale, negotiateLocale, pageLocale, type Locale } from "@/lib/platform/i18n/locales";
import { messages } from "@/lib/platform/i18n/messages";
import { PAGE_PATH_HEADER, recipientArea } from "@/lib/platform/i18n/areas";
import { openTestOnce } from "./open-test";

/**
 * The locale of a page (next-intl's request configuration, named in next.config.mjs). The proxy
 * passes the path of recipient and student pages in PAGE_PATH_HEADER; everything else is the
 * trainer area, in English. A recipient's test page follows the test's `language` (or the
 * browser's, for `auto`); join, student and certificate pages follow the browser.
 */
export default getRequestConfig(async () => {
  const requestHeaders = await headers();
  const locale = await localeOf(requestHeaders.get(PAGE_PATH_HEADER), requestHeaders.get("accept-language"));
  return { locale, messages: messages[locale], timeZone: "UTC" };
});

async function localeOf(path: string | null, acceptLanguage: string | null): Promise<Locale> {
  const area = path ? recipientArea(path) : undefined;
  if (!area) return defaultLocale;
  if (area.kind === "test") {
    // A database that cannot answer leaves the page to say so (503); the browser's language meanwhile.
    const view = await openTestOnce(area.token).catch(() => undefined);
    return pageLocale(view?.language, acceptLanguage);
  }
  return negotiateLocale(acceptLanguage);
}
