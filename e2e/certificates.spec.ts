import fs from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { api, keepScreenshot, signIn, uniqueEmail } from "./helpers";

/**
 * Certificates anyone can verify (issue 23): the trainer sets the organisation and signer in
 * Settings and creates a test that issues a certificate on a pass (pass mark 0: any answers
 * pass, since the catalog's answer key is not shown to trainers); the recipient, on a phone,
 * finishes, downloads the PDF and opens the verification page (their name, "Valid"); the
 * trainer revokes it from the answer sheet and the page then says "Revoked".
 */

const CERTIFICATION = "AWS Certified Cloud Practitioner";
const DOMAINS = ["Cloud Concepts", "Security and Compliance"];

type TestJson = { code: string; certificate: boolean; recipients: { id: number; email: string; link: string; result?: { passed: boolean | null; certificate_url: string | null } }[] };

/** Answers the question on screen (a single one: its first option; a multiple one: as many as it asks) and waits until it is saved. */
async function answerShown(page: Page) {
  const group = page.getByRole("group");
  if ((await group.getByRole("radio").count()) > 0) {
    await group.getByRole("radio").first().check();
  } else {
    const choose = Number((await page.getByTestId("choose-hint").textContent())!.match(/Choose (\d+)/)![1]);
    for (let i = 0; i < choose; i++) await group.getByRole("checkbox").nth(i).check();
  }
  await expect(page.getByText("✓ Saved")).toBeVisible();
}

test("a passing recipient downloads the certificate's PDF and opens its verification page; revoked, the page says so", async ({ browser }, testInfo) => {
  test.setTimeout(120_000);
  const trainerContext = await browser.newContext();
  // The recipient is on a phone.
  const phone = await browser.newContext({ viewport: { width: 360, height: 740 }, acceptDownloads: true });
  try {
    const trainer = await trainerContext.newPage();
    const ada = uniqueEmail("cert-ada");
    await signIn(trainer, uniqueEmail("certificates-trainer"));

    // The issuer: organisation and signer.
    await trainer.goto("/settings");
    await trainer.getByLabel(/^Organisation name/).fill("E2E Academy");
    await trainer.getByLabel(/^Signed by/).fill("Grace Hopper, Head of Training");
    await trainer.getByRole("button", { name: "Save certificate settings" }).click();
    await expect(trainer.getByText("Saved: new certificates carry these.")).toBeVisible();

    // A test that issues certificates.
    await trainer.goto("/tests/new");
    await trainer.getByRole("radio", { name: new RegExp(CERTIFICATION) }).check();
    await expect(trainer.getByTestId("selected-certification")).toContainText(CERTIFICATION);
    await trainer.getByRole("button", { name: "Untick all" }).click();
    for (const domain of DOMAINS) await trainer.getByRole("checkbox", { name: new RegExp(`^${domain} \\(`) }).check();
    await trainer.getByLabel("Total questions").fill("4");
    await trainer.getByLabel("E-mail addresses").fill(`Ada Lovelace <${ada}>`);
    await trainer.getByLabel("Name", { exact: true }).fill("Cloud certificate exam");
    await trainer.getByLabel("Pass mark (%)").fill("0");
    await trainer.getByRole("checkbox", { name: "Issue a certificate on a pass" }).check();
    await trainer.getByRole("button", { name: "Create test" }).click();
    await expect(trainer).toHaveURL(/\/tests\/[^/]+$/);
    const code = (await trainer.getByTestId("test-code").textContent())!.trim();
    await expect(trainer.getByTestId("test-settings").locator('[data-setting="certificate"]')).toHaveText("Certificate on a pass");
    const made = (await api(trainer, "GET", `/api/v1/tests/${code}`)) as TestJson;
    expect(made.certificate).toBe(true);
    const link = made.recipients[0].link;

    // Ada takes it on her phone and submits.
    const recipient = await phone.newPage();
    await recipient.goto(link);
    await recipient.getByRole("button", { name: "Start", exact: true }).click();
    for (let n = 1; n <= 4; n++) {
      await expect(recipient.getByRole("heading", { name: `Question ${n} of 4` })).toBeVisible();
      await answerShown(recipient);
      await recipient.getByRole("button", { name: n < 4 ? /^Next/ : /^Review/ }).first().click();
    }
    await recipient.getByTestId("submit-test").click();
    await recipient.getByRole("button", { name: "Yes, submit my answers" }).click();
    await expect(recipient.getByRole("heading", { name: "Your result" })).toBeVisible();
    await expect(recipient.getByTestId("result-passed")).toHaveAttribute("data-passed", "true");

    // The certificate on the result page: the PDF downloads.
    const download = recipient.getByTestId("certificate-download");
    await expect(download).toHaveText("Download certificate (PDF)");
    await keepScreenshot(recipient, "certificates-result", testInfo);
    const [file] = await Promise.all([recipient.waitForEvent("download"), download.click()]);
    expect(file.suggestedFilename()).toMatch(/^certificate-[A-Za-z0-9_-]{22}\.pdf$/);
    const bytes = fs.readFileSync((await file.path())!);
    expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");

    // The verification page: her name, Valid, no e-mail address; it fits the phone's width.
    const stored = (await api(trainer, "GET", `/api/v1/tests/${code}`)) as TestJson;
    const url = stored.recipients[0].result!.certificate_url!;
    expect(url).toMatch(/\/certificates\/[A-Za-z0-9_-]{22}$/);
    await recipient.getByTestId("certificate-verify").click();
    await expect(recipient).toHaveURL(url);
    await expect(recipient.getByTestId("certificate-name")).toHaveText("Ada Lovelace");
    await expect(recipient.getByTestId("certificate-status")).toHaveAttribute("data-status", "valid");
    await expect(recipient.getByTestId("certificate-status")).toContainText("Valid");
    await expect(recipient.getByText("E2E Academy").first()).toBeVisible();
    await expect(recipient.getByText("Grace Hopper, Head of Training")).toBeVisible();
    await expect(recipient.getByText(ada)).toHaveCount(0);
    expect(await recipient.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await keepScreenshot(recipient, "certificates-verification-valid", testInfo);

    // The trainer revokes it from the answer sheet.
    await trainer.goto(`/tests/${code}`);
    await trainer.locator(`[data-testid="recipient-row"][data-email="${ada}"]`).getByTestId("open-answer-sheet").click();
    const panel = trainer.getByTestId("recipient-certificate");
    await expect(panel).toHaveAttribute("data-status", "valid");
    trainer.once("dialog", (dialog) => void dialog.accept());
    await panel.getByTestId("revoke-certificate").click();
    await expect(panel).toHaveAttribute("data-status", "revoked");
    await expect(panel).toContainText("Revoked");

    await recipient.reload();
    await expect(recipient.getByTestId("certificate-status")).toHaveAttribute("data-status", "revoked");
    await expect(recipient.getByTestId("certificate-status")).toContainText(/Revoked.*revoked this certificate on \d{1,2} \w+ \d{4}/s);
    await keepScreenshot(recipient, "certificates-verification-revoked", testInfo);
  } finally {
    await trainerContext.close();
    await phone.close();
  }
});
