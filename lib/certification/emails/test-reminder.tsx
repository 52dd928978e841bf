import { Heading, Text } from "@react-email/components";
import { EmailButton, EmailLayout, SettingsLines } from "@/lib/platform/email/templates/layout";
import type { Locale } from "@/lib/platform/i18n/locales";
import { translator } from "@/lib/platform/i18n/translator";

export type TestReminderProps = {
  /** The language the e-mail is written in: mailLocale(test.language, the workspace's default). */
  locale: Locale;
  name: string;
  testName: string;
  /** Whether the recipient pressed Start already (the reminder then says to finish it). */
  started: boolean;
  /** The time limit and window in words, in `locale` (lib/certification/tests/settings-text.ts). */
  settings: string[];
  link: string;
  trainer: string;
};

export function testReminderSubject(locale: Locale, testName: string): string {
  return translator(locale, "emails")("reminder.subject", { testName });
}

/** The one reminder (reminder_after_hours) to a recipient who has not completed. */
export function TestReminderEmail({ locale, name, testName, started, settings, link, trainer }: TestReminderProps) {
  const t = translator(locale, "emails");
  return (
    <EmailLayout locale={locale} preview={t("reminder.preview", { testName })}>
      <Heading as="h1" style={{ fontSize: 20 }}>
        {t("reminder.heading", { testName })}
      </Heading>
      <Text>{name ? t("hello", { name }) : t("helloNoName")}</Text>
      <Text>{started ? t("reminder.started", { trainer }) : t("reminder.notStarted", { trainer })}</Text>
      <SettingsLines lines={settings} />
      <EmailButton href={link}>{t("openTest")}</EmailButton>
      <Text style={{ color: "#6b7280", fontSize: 13 }}>{t("reminder.footer")}</Text>
    </EmailLayout>
  );
}
