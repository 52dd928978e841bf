import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { CertificateVerification } from "@/components/certificates/certificate-verification";
import { findCertificate, toCertificateView } from "@/lib/certification/certificates/certificates";
import { getDb } from "@/lib/platform/database";
import { loadForPage } from "@/lib/platform/server/unavailable";

export const dynamic = "force-dynamic";

// Public, for whoever the holder shows it to; not for search engines.
export const metadata: Metadata = { title: "Certificate", robots: { index: false, follow: false } };

/** /certificates/{id}: anyone can check a certificate here (valid or revoked, the facts, no e-mail address). */
export default async function CertificatePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const certificate = await loadForPage(async () => findCertificate(await getDb(), id));
  if (!certificate) notFound();
  return (
    <main className="mx-auto w-full max-w-2xl px-4 py-6 sm:py-10">
      <p className="mb-4 text-sm font-bold text-brand-600">Certify · certificate verification</p>
      <CertificateVerification certificate={toCertificateView(certificate)} />
    </main>
  );
}
