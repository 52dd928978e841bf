import { getTranslations } from "next-intl/server";
import { LinkNotValid } from "@/components/ui/public-frame";

export default async function TestLinkNotFound() {
  const t = await getTranslations("taking.notFound");
  return <LinkNotValid title={t("title")}>{t("body")}</LinkNotValid>;
}
