import { getTranslations } from "next-intl/server";
import { LinkNotValid } from "@/components/ui/public-frame";

export default async function InvitationNotFound() {
  const t = await getTranslations("classes.join.notFound");
  return <LinkNotValid title={t("title")}>{t("body")}</LinkNotValid>;
}
