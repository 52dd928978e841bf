import type { ReactNode } from "react";
import { NextIntlClientProvider } from "next-intl";
import { getLocale } from "next-intl/server";
import { messagesOf } from "@/lib/platform/i18n/messages";

/** The invitation page in the student's language (their browser's): its client part (the join button) reads only `classes`. */
export default async function JoinLayout({ children }: { children: ReactNode }) {
  const locale = await getLocale();
  return (
    <NextIntlClientProvider locale={locale} messages={messagesOf(locale, ["classes"])} timeZone="UTC">
      {children}
    </NextIntlClientProvider>
  );
}
