import { expect, test, type APIResponse, type Page } from "@playwright/test";
import { signIn, signInOnThisPage, uniqueEmail } from "./helpers";

/**
 * Security headers on every kind of response (next.config.mjs `headers()`), and no open
 * redirect after sign-in. Requests to the would-be attacker's host are aborted by the test,
 * so nothing ever leaves 127.0.0.1 even if a redirect escaped.
 */

/** Requests to the attacker's host (not merely mentioning it in a query string). */
const EVIL = (url: URL) => url.hostname === "evil.example" || url.hostname.endsWith(".evil.example");

function expectSecurityHeaders(response: APIResponse, what: string, referrerPolicy = "strict-origin-when-cross-origin") {
  const headers = response.headers();
  expect(headers["x-content-type-options"], `${what}: X-Content-Type-Options`).toBe("nosniff");
  expect(headers["x-frame-options"], `${what}: X-Frame-Options`).toBe("DENY");
  expect(headers["content-security-policy"], `${what}: Content-Security-Policy`).toContain("frame-ancestors 'none'");
  expect(headers["referrer-policy"], `${what}: Referrer-Policy`).toBe(referrerPolicy);
}

test("every kind of response carries the security headers", async ({ request }) => {
  const page = await request.get("/signin");
  expect(page.status()).toBe(200);
  expectSecurityHeaders(page, "a page");

  const api = await request.get("/api/v1/certifications");
  expect(api.status()).toBe(401);
  expectSecurityHeaders(api, "an API route (an error answer)");

  const health = await request.get("/api/health");
  expect(health.status()).toBe(200);
  expectSecurityHeaders(health, "an API route");

  const missing = await request.get("/no-such-page");
  expect(missing.status()).toBe(404);
  expectSecurityHeaders(missing, "a 404");

  // Token pages send no Referer at all, even for a token that does not exist.
  const unknownToken = await request.get("/t/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
  expect(unknownToken.status()).toBe(404);
  expectSecurityHeaders(unknownToken, "an unknown /t/{token}", "no-referrer");
  for (const path of ["/join/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "/c/join/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"]) {
    expectSecurityHeaders(await request.get(path), path, "no-referrer");
  }
});

/** Creates a one-recipient test in the dashboard without e-mail; returns the recipient's personal link. */
async function createTestLink(page: Page): Promise<string> {
  const email = uniqueEmail("headers-recipient");
  await page.goto("/tests/new");
  await page.getByRole("radio", { name: /AWS Certified Cloud Practitioner/ }).check();
  await page.getByLabel("Total questions").fill("4");
  await page.getByLabel("E-mail addresses").fill(`${email}, Hea Ders`);
  await expect(page.getByTestId("parsed-count")).toContainText("1 recipient");
  await page.getByRole("checkbox", { name: "Send e-mails" }).uncheck();
  await page.getByRole("button", { name: "Create test" }).click();
  await expect(page).toHaveURL(/\/tests\/[^/]+$/);
  const row = page.locator(`[data-testid="recipient-row"][data-email="${email}"]`);
  await expect(row).toHaveAttribute("data-status", "sent");
  await expect(row.getByRole("button", { name: `Copy link for ${email}`, exact: true })).toBeVisible();
  await row.getByRole("button", { name: "Copy link" }).click();
  await expect(row.getByRole("button", { name: "Copied" })).toBeVisible();
  return page.evaluate(() => navigator.clipboard.readText());
}

test("a recipient's personal test page sends no Referer; a signed-in user is never sent to another site", async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ permissions: ["clipboard-read", "clipboard-write"] });
  try {
    const page = await context.newPage();
    await context.route(EVIL, (route) => route.abort());
    await signIn(page, uniqueEmail("security"));

    const link = await createTestLink(page);
    expect(link).toMatch(/\/t\/[^/]+$/);
    const tokenPage = await page.request.get(link);
    expect(tokenPage.status()).toBe(200);
    expectSecurityHeaders(tokenPage, "a real /t/{token}", "no-referrer");

    const origin = new URL(baseURL!).origin;
    for (const callbackUrl of ["/%5Cevil.example/phish", "/%09/evil.example/phish", "//evil.example/phish", "https://evil.example/phish", "/%5C%5Cevil.example"]) {
      // The redirect itself (no browser involved): its target resolves to this origin.
      const answer = await page.request.get(`/signin?callbackUrl=${callbackUrl}`, { maxRedirects: 0 });
      expect([303, 307, 308], `${callbackUrl}: a redirect`).toContain(answer.status());
      expect(new URL(answer.headers()["location"], `${origin}/signin`).origin, callbackUrl).toBe(origin);
      // And as a browser follows it.
      await page.goto(`/signin?callbackUrl=${callbackUrl}`);
      await expect(page).toHaveURL(/\/tests$/);
      expect(new URL(page.url()).origin, callbackUrl).toBe(origin);
    }
  } finally {
    await context.close();
  }
});

test("signing in from a link with another site as callbackUrl lands on the app", async ({ page, baseURL }) => {
  await page.context().route(EVIL, (route) => route.abort());
  await page.goto("/signin?callbackUrl=/%5Cevil.example/phish");
  await signInOnThisPage(page, uniqueEmail("security-callback"));
  await expect(page).toHaveURL(/\/tests$/);
  expect(new URL(page.url()).origin).toBe(new URL(baseURL!).origin);
});
