import { Body, Button, Container, Head, Html, Preview, Section, Text } from "@react-email/components";
import type { ReactNode } from "react";
import { defaultLocale, type Locale } from "@/lib/platform/i18n/locales";

/**
 * The frame every e-mail shares: plain, readable on a phone, no remote images. `locale` is the
 * language the e-mail is written in (its `<html lang>`): a recipient's or student's e-mail gives
 * theirs; the trainer-facing ones (sign-in, webhook notices) stay English, the default.
 */
export function EmailLayout({ preview, children, locale = defaultLocale }: { preview: string; children: ReactNode; locale?: Locale }) {
  return (
    <Html lang={locale}>
      <Head />
      <Preview>{preview}</Preview>
      <Body style={{ backgroundColor: "#f6f7f9", fontFamily: "system-ui, -apple-system, Segoe UI, sans-serif" }}>
        <Container style={{ backgroundColor: "#ffffff", borderRadius: 8, margin: "24px auto", maxWidth: 520, padding: 24 }}>
          <Text style={{ color: "#4f46e5", fontSize: 14, fontWeight: 700, margin: 0 }}>Certify</Text>
          <Section>{children}</Section>
        </Container>
      </Body>
    </Html>
  );
}

/** The one call to action of an e-mail. */
export function EmailButton({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Button href={href} style={{ backgroundColor: "#4f46e5", borderRadius: 6, color: "#ffffff", padding: "10px 16px", fontWeight: 600 }}>
      {children}
    </Button>
  );
}

/** A test's settings as the recipient reads them (lib/certification/tests/settings-text.ts), a line each. */
export function SettingsLines({ lines }: { lines: string[] }) {
  return lines.map((line) => (
    <Text key={line} style={{ margin: "4px 0" }}>
      {line}
    </Text>
  ));
}
