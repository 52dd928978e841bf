import type { Locale } from "./locales";
import deCertificate from "./messages/de/certificate.json";
import deClasses from "./messages/de/classes.json";
import deCommon from "./messages/de/common.json";
import deEmails from "./messages/de/emails.json";
import deTaking from "./messages/de/taking.json";
import enCertificate from "./messages/en/certificate.json";
import enClasses from "./messages/en/classes.json";
import enCommon from "./messages/en/common.json";
import enEmails from "./messages/en/emails.json";
import enTaking from "./messages/en/taking.json";
import esCertificate from "./messages/es/certificate.json";
import esClasses from "./messages/es/classes.json";
import esCommon from "./messages/es/common.json";
import esEmails from "./messages/es/emails.json";
import esTaking from "./messages/es/taking.json";
import frCertificate from "./messages/fr/certificate.json";
import frClasses from "./messages/fr/classes.json";
import frCommon from "./messages/fr/common.json";
import frEmails from "./messages/fr/emails.json";
import frTaking from "./messages/fr/taking.json";

/**
 * The texts recipients and students read, one JSON file per namespace and locale under
 * ./messages (ICU message syntax, next-intl). English is the reference: every locale holds the
 * same keys with the same placeholders (tests/platform/i18n/messages.test.ts), and the
 * `Messages` type below makes an unknown key a type error.
 */
const en = { common: enCommon, taking: enTaking, emails: enEmails, certificate: enCertificate, classes: enClasses };
export type Messages = typeof en;
export type Namespace = keyof Messages;

export const messages: Record<Locale, Messages> = {
  en,
  de: { common: deCommon, taking: deTaking, emails: deEmails, certificate: deCertificate, classes: deClasses } as Messages,
  fr: { common: frCommon, taking: frTaking, emails: frEmails, certificate: frCertificate, classes: frClasses } as Messages,
  es: { common: esCommon, taking: esTaking, emails: esEmails, certificate: esCertificate, classes: esClasses } as Messages,
};

/** Only the namespaces a page's client components read, so a page ships no more text than it shows. */
export function messagesOf<N extends Namespace>(locale: Locale, namespaces: readonly N[]): Pick<Messages, N> {
  return Object.fromEntries(namespaces.map((namespace) => [namespace, messages[locale][namespace]])) as Pick<Messages, N>;
}
