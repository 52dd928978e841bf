import type { ReactNode } from "react";
import { NextIntlClientProvider } from "next-intl";
import { getLocale } from "next-intl/server";
import { messagesOf } from "@/lib/platform/i18n/messages";

/**
 * A recipient's test page speaks the test's language (or the browser's, for `auto`: see
 * app/_i18n/request.ts). Its client components get only the texts they show.
 */
export default async function TestLayout({ children }: { children: ReactNode }) {
  const locale = await getLocale();
  return (
    <NextIntlClientProvider locale={locale} messages={messagesOf(locale, ["common", "taking"])} timeZone="UTC">
      {children}
    </NextIntlClientProvider>
  );
}
