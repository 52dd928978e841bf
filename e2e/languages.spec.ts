import { expect, test } from "@playwright/test";
import { apiCall, expectNoSeriousViolations, keepScreenshot, mailboxLink, signIn, uniqueEmail } from "./helpers";

/**
 * The recipient's language (issue 25): a test fixed to German speaks German whatever the
 * browser says (start page, questions, result; `lang="de"`, axe clean); a test in `auto`
 * follows the browser; the invitation of a French test is written in French.
 */

const gift = [
  "$CATEGORY: $course$/top/Netze",
  "",
  "::Port::Welcher Port gehört zu HTTPS? {=443 ~80 ~21}",
  "",
  "::Schicht::Welche Schicht leitet Pakete weiter? {=Vermittlungsschicht ~Bitübertragungsschicht ~Sitzungsschicht}",
  "",
].join("\n");

async function ownCertification(trainer: import("@playwright/test").Page, baseURL: string, name: string) {
  const certification = await apiCall(trainer.request, baseURL, "POST", "/api/v1/certifications", { name, vendor: "Acme" });
  const report = await apiCall(trainer.request, baseURL, "POST", `/api/v1/certifications/${certification.id}/import?format=gift`, gift);
  expect(report).toMatchObject({ imported: 2, skipped: [] });
  return { id: certification.id as number, domainId: report.domains[0].id as number };
}

test("a German test speaks German to an English browser: start, questions and result, lang=de, axe clean", async ({ browser, baseURL }, testInfo) => {
  const trainerContext = await browser.newContext();
  const recipientContext = await browser.newContext({ locale: "en-US", viewport: { width: 360, height: 740 } });
  try {
    const trainer = await trainerContext.newPage();
    await signIn(trainer, uniqueEmail("german-trainer"));
    const certification = await ownCertification(trainer, baseURL!, "Acme Netze");
    const created = await apiCall(trainer.request, baseURL!, "POST", "/api/v1/tests", {
      certification_id: certification.id,
      domains: [certification.domainId],
      questions: 2,
      pass_mark: 50,
      language: "de",
      shuffle_options: false,
      recipients: [{ email: uniqueEmail("german-recipient"), name: "Jonas" }],
      send_email: false,
    });
    expect(created.language).toBe("de");

    const recipient = await recipientContext.newPage();
    await recipient.goto(created.recipients[0].link);
    await expect(recipient.locator("html")).toHaveAttribute("lang", "de");
    await expect(recipient).toHaveTitle(/Ihr Test/);
    await expect(recipient.getByText("Für Jonas")).toBeVisible();
    const start = recipient.getByRole("button", { name: "Starten", exact: true });
    await expect(start).toBeVisible();
    await expectNoSeriousViolations(recipient, "the German start page");
    await start.click();

    await expect(recipient.getByRole("heading", { name: "Frage 1 von 2" })).toBeVisible();
    await recipient.getByRole("group").getByRole("radio").first().check();
    await expect(recipient.getByText("✓ Gespeichert")).toBeVisible();
    await expectNoSeriousViolations(recipient, "a German question");
    await recipient.getByRole("button", { name: "Weiter" }).click();
    await expect(recipient.getByRole("heading", { name: "Frage 2 von 2" })).toBeVisible();
    // The questions stay as written (drawn in a random order); the chrome around them is German.
    await expect(recipient.getByText(/^(Welche Schicht leitet Pakete weiter\?|Welcher Port gehört zu HTTPS\?)$/)).toBeVisible();
    await recipient.getByRole("group").getByRole("radio").nth(1).check();
    await expect(recipient.getByText("✓ Gespeichert")).toBeVisible();

    await recipient.getByTestId("submit-test").click();
    await recipient.getByRole("button", { name: "Ja, meine Antworten abgeben" }).click();
    await expect(recipient.getByRole("heading", { name: "Ihr Ergebnis" })).toBeVisible();
    // The page came back as the result (a refresh): its title is streamed back in with it.
    await expect(recipient).toHaveTitle(/Ihr Test/);
    await expect(recipient.getByText("1 von 2 Fragen richtig")).toBeVisible();
    await expect(recipient.getByText("Bestanden", { exact: true })).toBeVisible();
    await expect(recipient.getByTestId("result-pass-mark")).toHaveText("50 % – die Bestehensgrenze liegt bei 50 %"); // against the mark, in German
    await expect(recipient.getByText("Nach Themenbereich")).toBeVisible();
    // A percentage as German writes it.
    await expect(recipient.getByTestId("result-percent")).toHaveText("50 %");
    await expectNoSeriousViolations(recipient, "the German result");
    expect(await recipient.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await keepScreenshot(recipient, "german-result", testInfo);
  } finally {
    await trainerContext.close();
    await recipientContext.close();
  }
});

test("a test in auto follows the browser: French for a French browser, Spanish for a Spanish one, English otherwise", async ({ browser, baseURL }) => {
  const trainerContext = await browser.newContext();
  try {
    const trainer = await trainerContext.newPage();
    await signIn(trainer, uniqueEmail("auto-trainer"));
    const certification = await ownCertification(trainer, baseURL!, "Acme Auto");
    const created = await apiCall(trainer.request, baseURL!, "POST", "/api/v1/tests", {
      certification_id: certification.id,
      domains: [certification.domainId],
      questions: 2,
      recipients: [{ email: uniqueEmail("auto-recipient") }],
      send_email: false,
    });
    expect(created.language).toBe("auto");
    for (const [browserLocale, lang, start] of [
      ["fr-CA", "fr", "Commencer"],
      ["es-MX", "es", "Empezar"],
      ["ja-JP", "en", "Start"],
    ] as const) {
      const context = await browser.newContext({ locale: browserLocale });
      const page = await context.newPage();
      await page.goto(created.recipients[0].link);
      await expect(page.locator("html"), browserLocale).toHaveAttribute("lang", lang);
      await expect(page.getByRole("button", { name: start, exact: true }), browserLocale).toBeVisible();
      await context.close();
    }
  } finally {
    await trainerContext.close();
  }
});

test("the invitation of a French test is written in French, with its personal link", async ({ browser, baseURL }) => {
  const trainerContext = await browser.newContext();
  try {
    const trainer = await trainerContext.newPage();
    await signIn(trainer, uniqueEmail("french-trainer"));
    const certification = await ownCertification(trainer, baseURL!, "Acme Réseaux");
    const email = uniqueEmail("french-recipient");
    const created = await apiCall(trainer.request, baseURL!, "POST", "/api/v1/tests", {
      certification_id: certification.id,
      domains: [certification.domainId],
      questions: 2,
      name: "Réseaux, semaine 1",
      language: "fr",
      time_limit_minutes: 30,
      recipients: [{ email, name: "Camille" }],
      send_email: true,
    });
    const link = await mailboxLink(trainer, email, { subject: "Votre test d’entraînement : Réseaux, semaine 1" });
    expect(link).toBe(created.recipients[0].link);
    await trainer.getByRole("listitem").filter({ has: trainer.getByTestId("mail-to").getByText(email, { exact: true }) }).getByRole("link", { name: /Votre test/ }).click();
    const text = trainer.locator("pre");
    await expect(text).toContainText("Bonjour Camille,");
    await expect(text).toContainText("vous a envoyé un test d’entraînement Acme Réseaux de 2 questions");
    await expect(text).toContainText("Durée limite : 30 minutes");
    const html = trainer.frameLocator('iframe[title="HTML part"]');
    await expect(html.locator("html")).toHaveAttribute("lang", "fr");
    await expect(html.getByRole("link", { name: "Ouvrir le test" })).toHaveAttribute("href", link);
  } finally {
    await trainerContext.close();
  }
});
