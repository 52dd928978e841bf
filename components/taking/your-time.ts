import type { useTranslations } from "next-intl";
import type { TakingView } from "@/lib/certification/taking/taking";

type TestFacts = Pick<TakingView["test"], "timeLimitMinutes" | "extraTimeMinutes" | "closesAt">;

/** The page's translators (useTranslations on the page, translator() in a test). */
export type TakingTranslator = ReturnType<typeof useTranslations<"taking">>;
export type CommonTranslator = ReturnType<typeof useTranslations<"common">>;

/**
 * "30 minutes", "1 hour", "90 minutes" (whole hours only as hours), as settings-text.ts's
 * minutesText writes them for e-mails; here through the page's own messages, since importing
 * that one would ship every locale's messages to the browser.
 */
export function durationIn(common: CommonTranslator, minutes: number): string {
  return minutes % 60 === 0 ? common("duration.hours", { hours: minutes / 60 }) : common("duration.minutes", { minutes });
}

/**
 * "60 + 30 minutes extra": the recipient's own time when they were given extra time (an
 * accommodation); null without extra time, or when nothing ends the attempt (no limit, no
 * closing time), where extra time changes nothing.
 */
export function yourTime(test: TestFacts, t: TakingTranslator): string | null {
  if (!test.extraTimeMinutes) return null;
  if (test.timeLimitMinutes !== null) return t("start.yourTimeLimit", { limit: test.timeLimitMinutes, extra: test.extraTimeMinutes });
  return test.closesAt ? t("start.yourTimeUntilClose", { extra: test.extraTimeMinutes }) : null;
}

/**
 * The sentence above Start when there is a time limit: how long, counted from Start, and what
 * closes_at does to it. One whole sentence per case, so each language words it as it needs.
 */
export function clockSentence(test: TestFacts & { timeLimitMinutes: number }, t: TakingTranslator, common: CommonTranslator): string {
  const duration = durationIn(common, test.timeLimitMinutes);
  const extra = test.extraTimeMinutes ? durationIn(common, test.extraTimeMinutes) : null;
  if (test.closesAt) return extra ? t("start.clockExtraCloses", { duration, extra }) : t("start.clockCloses", { duration });
  return extra ? t("start.clockExtra", { duration, extra }) : t("start.clock", { duration });
}
