import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import { getLocale } from "next-intl/server";
import { Providers } from "@/components/providers";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Certify", template: "%s · Certify" },
  description: "Certification practice tests by e-mail, and competitions for your teams.",
};

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

export default async function RootLayout({ children }: { children: ReactNode }) {
  // English in the trainer area; a recipient's or student's page in theirs (app/_i18n/request.ts).
  const locale = await getLocale();
  return (
    <html lang={locale}>
      <body className="min-h-screen">
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
