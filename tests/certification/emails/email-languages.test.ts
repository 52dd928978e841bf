import { render, toPlainText } from "@react-email/components";
import { createElement } from "react";
import { describe, expect, it } from "vitest";
import { ClassInvitationEmail, classInvitationSubject } from "@/lib/certification/emails/class-invitation";
import { TestInvitationEmail, testInvitationSubject } from "@/lib/certification/emails/test-invitation";
import { TestReminderEmail, testReminderSubject } from "@/lib/certification/emails/test-reminder";
import { TestResultEmail, testResultSubject } from "@/lib/certification/emails/test-result";
import { SignInEmail } from "@/lib/platform/email/templates/sign-in";
import { personalizedRenderer } from "@/lib/platform/email/personalize";
import { locales, type Locale } from "@/lib/platform/i18n/locales";
import { settingsLines } from "@/lib/certification/tests/settings-text";
import { formatPercent } from "@/lib/platform/i18n/percent";

/**
 * Each recipient and student e-mail in each language, through the real renderer (React Email,
 * and for the invitation the one-render-per-batch personalizedRenderer): the subject and the
 * body are in that language, `<html lang>` says so, and names, test names and links are filled
 * in as written (never translated). English is exactly as it was before the languages.
 */

const NBSP = "\u00a0";
/** A percent as every recipient page and e-mail writes it (the no-break space before "%" differs between ICU versions in French). */
const pct = (locale: Locale, percent: number) => formatPercent(locale, percent);
const link = "https://certify.example/t/abc123";
const testName = "Friday mock exam";

/** Words each e-mail must show in each language: [subject, a sentence of the body, the button]. */
const invitationWords: Record<Locale, [string, string, string]> = {
  en: [`Your practice test: ${testName}`, "Acme Training sent you a practice test for AWS CLF-C02, 20 questions. No account is needed", "Open the test"],
  de: [`Ihr Übungstest: ${testName}`, "Acme Training hat Ihnen einen Übungstest zu AWS CLF-C02 mit 20 Fragen geschickt. Sie brauchen kein Konto", "Test öffnen"],
  fr: [`Votre test d’entraînement${NBSP}: ${testName}`, `Acme Training vous a envoyé un test d’entraînement AWS CLF-C02 de 20 questions. Aucun compte n’est nécessaire${NBSP}:`, "Ouvrir le test"],
  es: [`Tu prueba de práctica: ${testName}`, "Acme Training te ha enviado una prueba de práctica de AWS CLF-C02 con 20 preguntas. No necesitas ninguna cuenta", "Abrir la prueba"],
};
const hello: Record<Locale, [string, string]> = {
  en: ["Hello Ada Lovelace,", "Hello,"],
  de: ["Guten Tag Ada Lovelace,", "Guten Tag,"],
  fr: ["Bonjour Ada Lovelace,", "Bonjour,"],
  es: ["Hola, Ada Lovelace:", "Hola:"],
};

describe("the test invitation", () => {
  it.each(locales)("%s: subject, greeting, body, settings and button in the language; name and link as given", async (locale) => {
    const render = personalizedRenderer(TestInvitationEmail, ["name", "link"]);
    const shared = {
      locale,
      testName,
      certification: "AWS CLF-C02",
      questions: 20,
      settings: settingsLines({ timeLimitMinutes: 30, opensAt: null, closesAt: null }, locale),
      trainer: "Acme Training",
    };
    const [subject, sentence, button] = invitationWords[locale];
    expect(testInvitationSubject(locale, testName)).toBe(subject);
    const named = await render({ ...shared, name: "Ada Lovelace", link });
    const unnamed = await render({ ...shared, name: "", link: `${link}-2` });
    expect(named.html).toContain(` lang="${locale}"><head>`);
    expect(named.text).toContain(hello[locale][0]);
    expect(unnamed.text).toContain(hello[locale][1]);
    expect(named.text).toContain(sentence);
    expect(named.text).toContain(button);
    expect(named.text).toContain(shared.settings[0]);
    expect(named.html).toContain(`href="${link}"`);
    expect(unnamed.html).toContain(`href="${link}-2"`);
    expect(named.html).toContain(`>${testName}</h1>`);
  });

  it("English is word for word what it was", async () => {
    const html = await render(
      createElement(TestInvitationEmail, { locale: "en", name: "Ada", testName, certification: "AWS CLF-C02", questions: 20, settings: [], link, trainer: "Acme Training" }),
    );
    expect(toPlainText(html)).toContain(
      "Acme Training sent you a practice test for AWS CLF-C02, 20 questions. No account is needed: open your personal link and press Start when you are ready. Your answers are saved as you go, so you can come back to it.",
    );
    expect(toPlainText(html)).toContain("This link is personal: do not forward it.");
  });
});

const reminderWords: Record<Locale, { subject: string; started: string; notStarted: string }> = {
  en: { subject: `Reminder: ${testName}`, started: "You started the practice test Acme Training sent you but have not submitted it yet.", notStarted: "Acme Training sent you a practice test that you have not taken yet." },
  de: { subject: `Erinnerung: ${testName}`, started: "Sie haben den Übungstest von Acme Training begonnen, ihn aber noch nicht abgegeben.", notStarted: "Acme Training hat Ihnen einen Übungstest geschickt, den Sie noch nicht bearbeitet haben." },
  fr: { subject: `Rappel${NBSP}: ${testName}`, started: "Vous avez commencé le test d’entraînement que Acme Training vous a envoyé, mais vous ne l’avez pas encore remis.", notStarted: "Acme Training vous a envoyé un test d’entraînement que vous n’avez pas encore passé." },
  es: { subject: `Recordatorio: ${testName}`, started: "Empezaste la prueba de práctica que te envió Acme Training, pero aún no la has entregado.", notStarted: "Acme Training te envió una prueba de práctica que aún no has hecho." },
};

describe("the reminder", () => {
  it.each(locales)("%s: subject and body (started or not) in the language", async (locale) => {
    const render = personalizedRenderer(TestReminderEmail, ["name", "link"]);
    const props = { locale, name: "Ada Lovelace", testName, settings: [], link, trainer: "Acme Training" };
    expect(testReminderSubject(locale, testName)).toBe(reminderWords[locale].subject);
    const started = await render({ ...props, started: true });
    const notStarted = await render({ ...props, started: false });
    expect(started.html).toContain(` lang="${locale}"><head>`);
    expect(started.text).toContain(hello[locale][0]);
    expect(started.text).toContain(reminderWords[locale].started);
    expect(notStarted.text).toContain(reminderWords[locale].notStarted);
    expect(started.html).toContain(`href="${link}"`);
  });
});

const resultWords: Record<Locale, { subject: string; score: string; domain: string; review: string; none: string; certificate: string }> = {
  en: { subject: `Your result: ${testName}`, score: "72.5% — 1 of 2 questions correct — Passed: the pass mark is 70%", domain: "Cloud Concepts: 100%", review: "Answers and explanations", none: "✗ Incorrect — your answer: none", certificate: "You earned a certificate. Download it as a PDF:" },
  de: { subject: `Ihr Ergebnis: ${testName}`, score: `72,5${NBSP}% – 1 von 2 Fragen richtig – bestanden: Die Bestehensgrenze liegt bei 70${NBSP}%`, domain: `Cloud Concepts: 100${NBSP}%`, review: "Antworten und Erklärungen", none: "✗ Falsch – Ihre Antwort: keine", certificate: "Sie haben ein Zertifikat erhalten." },
  fr: { subject: `Votre résultat${NBSP}: ${testName}`, score: `${pct("fr", 72.5)} — 1 bonne réponse sur 2 — réussi${NBSP}: le seuil de réussite est de ${pct("fr", 70)}`, domain: `Cloud Concepts${NBSP}: ${pct("fr", 100)}`, review: "Réponses et explications", none: `✗ Incorrect — votre réponse${NBSP}: aucune`, certificate: "Vous avez obtenu un certificat." },
  es: { subject: `Tu resultado: ${testName}`, score: `72,5${NBSP}% — 1 de 2 preguntas correctas — aprobado: la nota para aprobar es 70${NBSP}%`, domain: `Cloud Concepts: 100${NBSP}%`, review: "Respuestas y explicaciones", none: "✗ Incorrecta — tu respuesta: ninguna", certificate: "Has obtenido un certificado." },
};

describe("the result", () => {
  it.each(locales)("%s: subject, score line, review and certificate in the language; questions and domains as written", async (locale) => {
    const certificateUrl = "https://certify.example/certificates/AAAAAAAAAAAAAAAAAAAAAA";
    const html = await render(
      createElement(TestResultEmail, {
        locale,
        name: "Ada Lovelace",
        testName,
        percent: 72.5,
        correct: 1,
        questions: 2,
        passed: true,
        passMark: 70,
        domains: [{ name: "Cloud Concepts", percent: 100 }],
        review: [{ prompt: "Which service stores objects?", chosen: null, correct: "Amazon S3", right: false, explanation: "S3 is object storage." }],
        reviewNote: null,
        link,
        certificateUrl,
      }),
    );
    const text = toPlainText(html);
    expect(testResultSubject(locale, testName)).toBe(resultWords[locale].subject);
    expect(html).toContain(` lang="${locale}"><head>`);
    expect(text).toContain(hello[locale][0]);
    expect(text).toContain(resultWords[locale].score);
    expect(text).toContain(resultWords[locale].domain);
    expect(text.toLowerCase()).toContain(resultWords[locale].review.toLowerCase());
    expect(text).toContain(resultWords[locale].none);
    expect(text).toContain(resultWords[locale].certificate);
    for (const asWritten of ["Which service stores objects?", "Amazon S3", "S3 is object storage.", "Cloud Concepts"]) expect(text).toContain(asWritten);
    expect(html).toContain(`href="${certificateUrl}/pdf"`);
    expect(html).toContain(`href="${certificateUrl}"`);
    expect(html).toContain(`href="${link}"`);
  });
});

const classWords: Record<Locale, [string, string, string]> = {
  en: ["Join the class Networking 101", "Acme Training invited you to the class Networking 101 (CompTIA Network+). Join with a free account", "Join the class"],
  de: ["Einladung in den Kurs Networking 101", "Acme Training hat Sie in den Kurs Networking 101 (CompTIA Network+) eingeladen.", "Kurs beitreten"],
  fr: ["Rejoignez la classe Networking 101", "Acme Training vous invite à rejoindre la classe Networking 101 (CompTIA Network+).", "Rejoindre la classe"],
  es: ["Únete a la clase Networking 101", "Acme Training te ha invitado a la clase Networking 101 (CompTIA Network+).", "Unirme a la clase"],
};

describe("the class invitation", () => {
  it.each(locales)("%s: subject, body and button in the language; class and trainer as written", async (locale) => {
    const joinLink = "https://certify.example/join/xyz789";
    const props = { locale, name: "Ada Lovelace", className: "Networking 101", certification: "CompTIA Network+", link: joinLink, trainer: "Acme Training" };
    const html = await render(createElement(ClassInvitationEmail, props));
    const text = toPlainText(html);
    expect(classInvitationSubject(locale, "Networking 101")).toBe(classWords[locale][0]);
    expect(html).toContain(` lang="${locale}"><head>`);
    expect(text).toContain(hello[locale][0]);
    expect(text).toContain(classWords[locale][1]);
    expect(text).toContain(classWords[locale][2]);
    expect(html).toContain(`href="${joinLink}"`);
  });
});

describe("the trainer's e-mails", () => {
  it("stay English: the sign-in e-mail is `<html lang=\"en\">`", async () => {
    const html = await render(createElement(SignInEmail, { url: "https://certify.example/api/auth/callback", host: "certify.example" }));
    expect(html).toContain(` lang="en"><head>`);
    expect(html).toContain(">Sign in to Certify</h1>");
  });
});
