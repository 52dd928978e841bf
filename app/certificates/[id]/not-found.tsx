import { getTranslations } from "next-intl/server";
import { LinkNotValid } from "@/components/ui/public-frame";

export default async function CertificateNotFound() {
  const t = await getTranslations("certificate.notFound");
  return <LinkNotValid title={t("title")}>{t("body")}</LinkNotValid>;
}
