import { Heading, Text } from "@react-email/components";
import { EmailButton, EmailLayout, SettingsLines } from "@/lib/platform/email/templates/layout";
import type { Locale } from "@/lib/platform/i18n/locales";
import { translator } from "@/lib/platform/i18n/translator";

export type TestInvitationProps = {
  /** The language the e-mail is written in: mailLocale(test.language, the workspace's default). */
  locale: Locale;
  name: string;
  /** The test's name (default "{certification} test"). */
  testName: string;
  certification: string;
  questions: number;
  /** The time limit and window in words, in `locale` (lib/certification/tests/settings-text.ts); empty without them. */
  settings: string[];
  link: string;
  trainer: string;
};

export function testInvitationSubject(locale: Locale, testName: string): string {
  return translator(locale, "emails")("invitation.subject", { testName });
}

export function TestInvitationEmail({ locale, name, testName, certification, questions, settings, link, trainer }: TestInvitationProps) {
  const t = translator(locale, "emails");
  return (
    <EmailLayout locale={locale} preview={t("invitation.preview", { trainer, certification })}>
      <Heading as="h1" style={{ fontSize: 20 }}>
        {testName}
      </Heading>
      <Text>{name ? t("hello", { name }) : t("helloNoName")}</Text>
      <Text>{t("invitation.body", { trainer, certification, questions })}</Text>
      <SettingsLines lines={settings} />
      <EmailButton href={link}>{t("openTest")}</EmailButton>
      <Text style={{ color: "#6b7280", fontSize: 13 }}>{t("personalLink")}</Text>
    </EmailLayout>
  );
}
