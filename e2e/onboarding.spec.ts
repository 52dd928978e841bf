import { expect, test, type Page } from "@playwright/test";
import { api, expectNoSeriousViolations, signIn, uniqueEmail } from "./helpers";

/**
 * The first sign-in's welcome step (issue 26): a card on the Tests page, never a redirect,
 * asking who recipients should read as the sender. Skip answers it for good; Save names the
 * workspace, and the next test invitation says that name instead of "<local part>'s workspace".
 */

/** E-mails a one-question test to `to` through the dashboard's own API (the trainer's session). */
async function emailATest(page: Page, to: string) {
  const [certification] = (await api(page, "GET", "/api/v1/certifications?search=Cloud%20Practitioner")).data;
  const [domain] = (await api(page, "GET", `/api/v1/certifications/${certification.id}/domains`)).data;
  await api(page, "POST", "/api/v1/tests", { certification_id: certification.id, domains: [domain.id], questions: 1, recipients: [{ email: to }], send_email: true });
}

/** The text part of the newest dev-mailbox e-mail to `to`, waiting for it to arrive. */
async function mailText(page: Page, to: string): Promise<string> {
  await expect(async () => {
    await page.goto("/dev/mailbox");
    const entry = page.getByRole("listitem").filter({ has: page.getByTestId("mail-to").getByText(to, { exact: true }) }).first();
    await entry.getByRole("link").first().click({ timeout: 2_000 });
    await expect(page.getByRole("heading", { name: "Text part" })).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 15_000 });
  return (await page.locator("pre").textContent()) ?? "";
}

test("Skip hides the welcome step for good; e-mails meanwhile carry the trainer's address", async ({ page }) => {
  const email = uniqueEmail("welcome-skip");
  await signIn(page, email);
  const welcome = page.getByTestId("welcome-step");
  await expect(welcome).toBeVisible();
  await expect(welcome.getByRole("heading", { name: /Who should recipients see as the sender/ })).toBeVisible();
  await expect(welcome.getByLabel("Your name")).toBeVisible();
  await expect(welcome.getByLabel("Organisation name")).toBeVisible();
  await expectNoSeriousViolations(page, "the Tests page with the welcome step");

  await welcome.getByRole("button", { name: "Skip", exact: true }).click();
  await expect(welcome).toBeHidden();
  await page.reload();
  await expect(page.getByRole("heading", { name: "Tests", level: 1 })).toBeVisible();
  await expect(page.getByTestId("welcome-step")).toHaveCount(0);

  const recipient = uniqueEmail("welcome-skip-recipient");
  await emailATest(page, recipient);
  const text = await mailText(page, recipient);
  expect(text).toContain(`${email} sent you`);
  expect(text).not.toContain("'s workspace");
});

test("Save names the workspace: the header and the next test invitation say it", async ({ page }) => {
  const organisation = `Walk Academy ${Date.now().toString(36)}`;
  await signIn(page, uniqueEmail("welcome-save"));
  const welcome = page.getByTestId("welcome-step");
  await welcome.getByLabel("Your name").fill("Tess Walker");
  await welcome.getByLabel("Organisation name").fill(organisation);
  await welcome.getByRole("button", { name: "Save", exact: true }).click();
  await expect(welcome).toBeHidden();
  await expect(page.getByTestId("workspace-name")).toContainText(organisation);
  await page.reload();
  await expect(page.getByRole("heading", { name: "Tests", level: 1 })).toBeVisible();
  await expect(page.getByTestId("welcome-step")).toHaveCount(0);

  const recipient = uniqueEmail("welcome-save-recipient");
  await emailATest(page, recipient);
  expect(await mailText(page, recipient)).toContain(`${organisation} sent you`);
});

test("the welcome step fits a 360-px phone", async ({ browser }) => {
  const phone = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, deviceScaleFactor: 2 });
  try {
    const page = await phone.newPage();
    await signIn(page, uniqueEmail("welcome-phone"));
    await expect(page.getByTestId("welcome-step")).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await expectNoSeriousViolations(page, "the welcome step at 360 px");
  } finally {
    await phone.close();
  }
});
