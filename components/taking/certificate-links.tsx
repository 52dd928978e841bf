import { useTranslations } from "next-intl";
import { buttonClass } from "@/components/ui/button";
import { Card } from "@/components/ui/card";

/** On a passing recipient's result: their certificate to download, and the public page anyone can check it on. */
export function CertificateLinks({ url }: { url: string }) {
  const t = useTranslations("taking.certificate");
  return (
    <Card>
      <h2 className="text-lg font-semibold">{t("heading")}</h2>
      <p className="mt-1 text-sm text-slate-600">{t("body")}</p>
      <div className="mt-3 flex flex-wrap gap-3">
        <a
          href={`${url}/pdf`}
          download
          data-testid="certificate-download"
          className={buttonClass("primary", "min-h-11")}
        >
          {t("download")}
        </a>
        <a href={url} data-testid="certificate-verify" className="inline-flex items-center px-1 py-2 text-sm font-medium text-brand-700 underline-offset-2 hover:underline">
          {t("verify")}
        </a>
      </div>
      <p className="mt-2 text-xs text-slate-500 [overflow-wrap:anywhere]">{url}</p>
    </Card>
  );
}
