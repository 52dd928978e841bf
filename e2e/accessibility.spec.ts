import { expect, test } from "@playwright/test";
import { apiCall, expectNoSeriousViolations, signIn, uniqueEmail } from "./helpers";

/**
 * axe-core on the main pages people use, failing on any serious or critical violation:
 * sign-in, a trainer's test page, a class page, the recipient's test on a 360 px phone, and
 * a public competition page. The data is made through /api/v1 with the trainer's session
 * (the same calls the dashboard makes), so each page has real content to check.
 */

test("the main pages have no serious or critical accessibility violations", async ({ browser, page, baseURL }) => {
  test.setTimeout(120_000);
  const origin = new URL(baseURL!).origin;

  await page.goto("/signin");
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await expectNoSeriousViolations(page, "the sign-in page");

  await signIn(page, uniqueEmail("a11y"));
  const request = page.request;
  const [certification] = (await apiCall(request, origin, "GET", "/api/v1/certifications?search=Cloud%20Practitioner")).data;
  const domains = (await apiCall(request, origin, "GET", `/api/v1/certifications/${certification.id}/domains`)).data.map((domain: { id: number }) => domain.id);

  // A test with one recipient, links not e-mailed.
  const created = await apiCall(request, origin, "POST", "/api/v1/tests", {
    certification_id: certification.id,
    domains,
    questions: 4,
    recipients: [{ email: uniqueEmail("a11y-recipient"), name: "Ada Lovelace" }],
    send_email: false,
  });
  await page.goto(`/tests/${created.code}`);
  await expect(page.getByTestId("recipient-row")).toHaveCount(1);
  await expectNoSeriousViolations(page, "the trainer's test page");

  // A class with a pending invitation.
  const klass = await apiCall(request, origin, "POST", "/api/v1/classes", { name: "Accessibility class", certification_id: certification.id, emails: [uniqueEmail("a11y-student")] });
  await page.goto(`/classes/${klass.id}`);
  await expect(page.getByRole("heading", { name: "Accessibility class" })).toBeVisible();
  await expectNoSeriousViolations(page, "the class page");

  // The recipient's test on a small phone.
  const phone = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, deviceScaleFactor: 2 });
  try {
    const recipientPage = await phone.newPage();
    await recipientPage.goto(created.recipients[0].link);
    await expect(recipientPage.getByRole("heading", { level: 1 })).toBeVisible();
    await expectNoSeriousViolations(recipientPage, "the recipient's start page at 360 px");
    await recipientPage.getByRole("button", { name: "Start", exact: true }).click();
    await expect(recipientPage.getByRole("heading", { name: /^Question 1 of/ })).toBeVisible();
    await expectNoSeriousViolations(recipientPage, "the recipient's test at 360 px");
  } finally {
    await phone.close();
  }

  // A public competition, deployed on the built-in host, as a visitor sees it.
  const now = Date.now();
  const ctf = await apiCall(request, origin, "POST", "/api/v1/ctfs", {
    title: "Accessibility CTF",
    description: "A competition to check the public page.",
    starts_at: new Date(now - 60_000).toISOString(),
    ends_at: new Date(now + 3_600_000).toISOString(),
    is_public: true,
  });
  await apiCall(request, origin, "POST", `/api/v1/ctfs/${ctf.id}/deploy`);
  await expect.poll(async () => (await apiCall(request, origin, "GET", `/api/v1/ctfs/${ctf.id}`)).status, { timeout: 30_000 }).toBe("deployed");
  const visitor = await browser.newContext();
  try {
    const publicPage = await visitor.newPage();
    await publicPage.goto(`/c/${ctf.id}`);
    await expect(publicPage.getByRole("heading", { name: "Accessibility CTF" })).toBeVisible();
    await expectNoSeriousViolations(publicPage, "the public competition page");
  } finally {
    await visitor.close();
  }
});

test("every page has a favicon", async ({ request }) => {
  const response = await request.get("/favicon.ico");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toMatch(/image\//);
});

test("the skip link is the first keyboard stop of the trainer area and moves the focus to the page's content", async ({ page }) => {
  await signIn(page, uniqueEmail("a11y-skip"));
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();
  await page.keyboard.press("Enter");
  await expect(page.locator("main#main")).toBeFocused();
});

test("on a phone the trainer area's Menu opens with Enter and closes with Escape, the focus back on it", async ({ browser }) => {
  const phone = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
  try {
    const page = await phone.newPage();
    await signIn(page, uniqueEmail("a11y-menu"));
    const nav = page.getByRole("navigation", { name: "Trainer area" });
    const menu = nav.getByRole("button", { name: /^Menu/ });
    await menu.focus();
    await page.keyboard.press("Enter");
    await expect(menu).toHaveAttribute("aria-expanded", "true");
    await page.keyboard.press("Tab");
    await expect(nav.getByRole("link", { name: "Tests", exact: true })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await expect(menu).toBeFocused();
    await expect(nav.getByRole("link", { name: "Classes", exact: true })).toBeHidden();
  } finally {
    await phone.close();
  }
});
