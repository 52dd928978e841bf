import { Heading, Text } from "@react-email/components";
import { EmailButton, EmailLayout } from "@/lib/platform/email/templates/layout";
import type { Locale } from "@/lib/platform/i18n/locales";
import { translator } from "@/lib/platform/i18n/translator";

/**
 * `locale`: the workspace's default language (an invitation has no test, nor a browser to ask);
 * `name`: the student's name as the trainer gave it ("" when none); `trainer`: the workspace's name.
 */
export type ClassInvitationProps = { locale: Locale; name: string; className: string; certification: string; link: string; trainer: string };

export function classInvitationSubject(locale: Locale, className: string): string {
  return translator(locale, "emails")("classInvitation.subject", { className });
}

export function ClassInvitationEmail({ locale, name, className, certification, link, trainer }: ClassInvitationProps) {
  const t = translator(locale, "emails");
  return (
    <EmailLayout locale={locale} preview={t("classInvitation.preview", { trainer, className })}>
      <Heading as="h1" style={{ fontSize: 20 }}>
        {t("classInvitation.heading", { className })}
      </Heading>
      <Text>{name ? t("hello", { name }) : t("helloNoName")}</Text>
      <Text>{t("classInvitation.body", { trainer, className, certification })}</Text>
      <EmailButton href={link}>{t("classInvitation.button")}</EmailButton>
    </EmailLayout>
  );
}
