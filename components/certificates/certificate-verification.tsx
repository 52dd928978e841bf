import { Card } from "@/components/ui/card";
import type { CertificateView } from "@/lib/certification/certificates/schemas";
import type { Locale } from "@/lib/platform/i18n/locales";
import { intlLocale, translator } from "@/lib/platform/i18n/translator";

/** "26 November 2026", "26. November 2026", "26 novembre 2026"… (UTC), as the certificate itself dates things. */
const longDate = (iso: string, locale: Locale) =>
  new Date(iso).toLocaleDateString(intlLocale(locale), { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });

/**
 * The public verification page's body, in the reader's language (`locale`: their browser's):
 * whether the certificate is valid or revoked (with the date), the facts frozen at issue — names
 * as written — and its PDF and Open Badges credential. Never an e-mail address: the view carries none.
 */
export function CertificateVerification({ certificate, locale }: { certificate: CertificateView; locale: Locale }) {
  const t = translator(locale, "certificate");
  const revoked = certificate.status === "revoked";
  const { organisation } = certificate;
  return (
    <Card className="space-y-5">
      <div
        data-testid="certificate-status"
        data-status={certificate.status}
        className={`rounded-md px-4 py-3 text-sm ring-1 ring-inset ${revoked ? "bg-red-50 text-red-900 ring-red-200" : "bg-green-50 text-green-900 ring-green-200"}`}
      >
        <p className="text-base font-semibold">{revoked ? t("revoked") : t("valid")}</p>
        <p className="mt-0.5">
          {revoked ? t("revokedText", { organisation, date: longDate(certificate.revoked_at!, locale) }) : t("validText", { organisation })}
        </p>
      </div>
      <div>
        <p className="text-sm text-slate-600">{t("certifies")}</p>
        <h1 className="mt-1 text-2xl font-semibold [overflow-wrap:anywhere]" data-testid="certificate-name">
          {certificate.recipient_name}
        </h1>
        <p className="mt-2 text-slate-800 [overflow-wrap:anywhere]">
          {t.rich("passed", { testName: certificate.test_name, test: (chunks) => <span className="font-medium">{chunks}</span> })}
        </p>
      </div>
      <dl className="grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
        <Fact term={t("certification")}>{certificate.certification}</Fact>
        <Fact term={t("score")}>{t("scoreValue", { score: certificate.score })}</Fact>
        <Fact term={t("issued")}>{longDate(certificate.issued_at, locale)}</Fact>
        <Fact term={t("issuedBy")}>{organisation}</Fact>
        {certificate.signer ? <Fact term={t("signedBy")}>{certificate.signer}</Fact> : null}
        <Fact term={t("id")}>
          <span className="font-mono text-xs">{certificate.id}</span>
        </Fact>
      </dl>
      <div className="flex flex-wrap gap-x-4 gap-y-2 border-t border-slate-100 pt-4 text-sm">
        <a href={certificate.pdf_url} className="font-medium text-brand-700 underline-offset-2 hover:underline" data-testid="certificate-pdf">
          {t("downloadPdf")}
        </a>
        <a href={certificate.credential_url} className="text-brand-700 underline-offset-2 hover:underline">
          {t("credential")}
        </a>
      </div>
    </Card>
  );
}

function Fact({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{term}</dt>
      <dd className="mt-0.5 text-slate-900 [overflow-wrap:anywhere]">{children}</dd>
    </div>
  );
}
