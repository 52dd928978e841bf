import type { Locale } from "./locales";
import type { Messages } from "./messages";

// next-intl's typed keys: t("…") of a key English lacks is a type error (and so a CI failure).
declare module "next-intl" {
  interface AppConfig {
    Locale: Locale;
    Messages: Messages;
  }
}
