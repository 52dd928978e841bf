import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getLocale } from "next-intl/server";
import { CertificateVerification } from "@/components/certificates/certificate-verification";
import { findCertificate, toCertificateView } from "@/lib/certification/certificates/certificates";
import { translator } from "@/lib/platform/i18n/translator";
import { getDb } from "@/lib/platform/database";
import { loadForPage } from "@/lib/platform/server/unavailable";

export const dynamic = "force-dynamic";

// Public, for whoever the holder shows it to; not for search engines. In the reader's language (app/_i18n/request.ts).
export async function generateMetadata(): Promise<Metadata> {
  return { title: translator(await getLocale(), "certificate")("title"), robots: { index: false, follow: false } };
}

/** /certificates/{id}: anyone can check a certificate here (valid or revoked, the facts, no e-mail address), in their browser's language. */
export default async function CertificatePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const [certificate, locale] = await Promise.all([loadForPage(async () => findCertificate(await getDb(), id)), getLocale()]);
  if (!certificate) notFound();
  return (
    <main className="mx-auto w-full max-w-2xl px-4 py-6 sm:py-10">
      <p className="mb-4 text-sm font-bold text-brand-600">{translator(locale, "certificate")("brandLine")}</p>
      <CertificateVerification certificate={toCertificateView(certificate)} locale={locale} />
    </main>
  );
}
