"use client";

import { useTranslations } from "next-intl";
import { ErrorPage } from "@/components/unavailable";

/** The error page of a recipient's test, in the test's language: "temporarily unavailable" during an outage, an apology otherwise. */
export default function TestError({ error }: { error: Error & { digest?: string } }) {
  const common = useTranslations("common");
  const t = useTranslations("taking.error");
  return (
    <ErrorPage
      error={error}
      otherwise={{ title: t("title"), body: t("body") }}
      copy={{ title: common("unavailable.title"), body: common("unavailable.body"), retry: common("unavailable.retry"), brand: common("brand") }}
    />
  );
}
