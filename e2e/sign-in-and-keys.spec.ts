import { expect, test, type APIResponse, type Page } from "@playwright/test";
import { expectSignedIn, keepScreenshot, signIn, uniqueEmail } from "./helpers";

type CertificationList = {
  data: { id: number; vendor: string; code: string; name: string }[];
  pagination: { page: number; per_page: number; total: number };
};
type ApiError = { error: { code: string; message: string; request_id: string } };

function expectRateLimitHeaders(response: APIResponse) {
  const headers = response.headers();
  expect(headers["x-request-id"], "X-Request-Id").toBeTruthy();
  expect(headers["x-ratelimit-limit"]).toBe("120");
  expect(Number.isInteger(Number(headers["x-ratelimit-remaining"])), "X-RateLimit-Remaining is an integer").toBe(true);
  const remaining = Number(headers["x-ratelimit-remaining"]);
  expect(remaining).toBeGreaterThanOrEqual(0);
  expect(remaining).toBeLessThanOrEqual(119);
  const reset = Number(headers["x-ratelimit-reset"]);
  expect(Number.isInteger(reset), "X-RateLimit-Reset is whole Unix seconds").toBe(true);
  const now = Date.now() / 1000;
  expect(reset).toBeGreaterThanOrEqual(Math.floor(now) - 1);
  expect(reset).toBeLessThanOrEqual(Math.ceil(now) + 61);
}

async function openApiKeys(page: Page) {
  await page.getByRole("navigation", { name: "Trainer area" }).getByRole("link", { name: "API keys", exact: true }).click();
  await expect(page).toHaveURL(/\/api-keys$/);
  await expect(page.getByRole("link", { name: "API reference" })).toHaveAttribute("href", "/docs/api");
  await expect(page.getByRole("button", { name: "Create key" })).toBeVisible();
}

/** Creates a full-access key through the form; returns the secret shown once. */
async function createKey(page: Page, name: string): Promise<string> {
  await page.locator("#key-name").fill(name);
  await page.getByRole("radio", { name: "Full access" }).check();
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByRole("heading", { name: `Key “${name}” created` })).toBeVisible();
  const secret = (await page.getByTestId("new-key-secret").textContent())?.trim() ?? "";
  expect(secret).toMatch(/^ck_[A-Za-z0-9_-]{40,}$/);
  return secret;
}

const keyRow = (page: Page, name: string) =>
  page.getByTestId("api-key-row").filter({ has: page.getByRole("cell", { name, exact: true }) });

test("sign in by e-mail link, create a key, use it, revoke it", async ({ page, request }, testInfo) => {
  const email = uniqueEmail("journey");
  await signIn(page, email);

  await openApiKeys(page);
  await expect(page.getByText("No keys yet.")).toBeVisible();
  await keepScreenshot(page, "api-keys-empty", testInfo);

  const secret = await createKey(page, "LMS integration");
  await expect(page.getByText("it is shown this once and never again")).toBeVisible();
  await expect(page.getByRole("button", { name: "Copy", exact: true })).toBeVisible();
  const row = keyRow(page, "LMS integration");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("Full access");
  await keepScreenshot(page, "api-keys-created-secret-shown", testInfo);

  // The list shows only the prefix: a proper beginning of the secret, never the secret.
  const prefix = ((await row.getByRole("cell").nth(1).textContent()) ?? "").replace("…", "").trim();
  expect(prefix.length).toBeGreaterThanOrEqual(8);
  expect(prefix.length).toBeLessThan(secret.length);
  expect(secret.startsWith(prefix)).toBe(true);

  // Shown once: gone after "Done", and still gone after a reload.
  await page.getByRole("button", { name: "Done" }).click();
  await expect(page.getByTestId("new-key-secret")).toHaveCount(0);
  expect(await page.content()).not.toContain(secret);
  await page.reload();
  await expect(keyRow(page, "LMS integration")).toHaveCount(1);
  await expect(page.getByTestId("new-key-secret")).toHaveCount(0);
  expect(await page.content()).not.toContain(secret);
  expect(await page.locator("body").innerText()).not.toContain(secret);
  await expect(keyRow(page, "LMS integration")).toContainText(`${prefix}…`);
  await keepScreenshot(page, "api-keys-after-reload", testInfo);

  // The key works against the public API, in either header.
  const ok = await request.get("/api/v1/certifications", { headers: { "X-API-KEY": secret } });
  expect(ok.status()).toBe(200);
  expectRateLimitHeaders(ok);
  const list = (await ok.json()) as CertificationList;
  expect(list.data.length).toBeGreaterThanOrEqual(3);
  expect(new Set(list.data.map((c) => c.vendor)).size).toBeGreaterThanOrEqual(2);
  expect(list.pagination).toEqual(expect.objectContaining({ page: 1, total: expect.any(Number), per_page: expect.any(Number) }));
  expect(list.pagination.total).toBeGreaterThanOrEqual(list.data.length);

  const bearer = await request.get("/api/v1/certifications", { headers: { Authorization: `Bearer ${secret}` } });
  expect(bearer.status()).toBe(200);
  expectRateLimitHeaders(bearer);
  expect(Number(bearer.headers()["x-ratelimit-remaining"])).toBeLessThan(Number(ok.headers()["x-ratelimit-remaining"]));

  // Revoke it in the UI (the confirm() dialog is accepted); the next call is refused.
  page.once("dialog", (dialog) => {
    expect(dialog.type()).toBe("confirm");
    void dialog.accept();
  });
  await keyRow(page, "LMS integration").getByRole("button", { name: "Revoke" }).click();
  await expect(keyRow(page, "LMS integration")).toContainText("Revoked");
  await expect(keyRow(page, "LMS integration").getByRole("button", { name: "Revoke" })).toHaveCount(0);
  await keepScreenshot(page, "api-keys-revoked", testInfo);

  const refused = await request.get("/api/v1/certifications", { headers: { "X-API-KEY": secret } });
  expect(refused.status()).toBe(401);
  expect(refused.headers()["x-request-id"]).toBeTruthy();
  const body = (await refused.json()) as ApiError;
  expect(body.error.code).toBe("unauthorized");
  expect(body.error.message).toEqual(expect.any(String));
  expect(body.error.request_id).toBe(refused.headers()["x-request-id"]);

  const missing = await request.get("/api/v1/certifications");
  expect(missing.status()).toBe(401);
  expect(((await missing.json()) as ApiError).error.code).toBe("unauthorized");
});

test("a workspace has at most 5 active API keys", async ({ page }, testInfo) => {
  await signIn(page, uniqueEmail("five-keys"));
  await openApiKeys(page);

  for (let i = 1; i <= 5; i++) {
    await createKey(page, `Key ${i}`);
    await expect(page.getByTestId("api-key-row")).toHaveCount(i);
  }
  await expect(page.getByText("5 of 5 active keys.")).toBeVisible();

  await page.locator("#key-name").fill("Key 6");
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByText(/at most 5 active API keys/)).toBeVisible();
  await expect(page.getByTestId("api-key-row")).toHaveCount(5);
  await expect(keyRow(page, "Key 6")).toHaveCount(0);
  await keepScreenshot(page, "api-keys-sixth-refused", testInfo);
});

test("sign out ends the session", async ({ page }) => {
  const email = uniqueEmail("sign-out");
  await signIn(page, email);
  await page.getByRole("button", { name: "Sign out" }).click();

  await expect(page).toHaveURL("/");
  await expect(page.getByRole("navigation", { name: "Trainer area" })).toHaveCount(0);
  await expect(page.getByText(email, { exact: true })).toHaveCount(0);

  await page.goto("/api-keys");
  await expect(page).toHaveURL(/\/signin$/);
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();

  // Signing in again still works after signing out.
  await signIn(page, email);
  await expectSignedIn(page, email);
});

// Scalar renders in the browser: about 4 s of Chromium's CPU for this document, which a machine
// shared with other runs can stretch several times over, hence the first wait's 30 s. It lists
// a tag's operations once the reader opens the tag (all tags open would cost more again).
test("the API reference renders the generated document and loads nothing from another host", async ({ page }) => {
  const foreign: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (!["localhost", "127.0.0.1"].includes(url.hostname) && url.protocol !== "data:" && url.protocol !== "blob:") foreign.push(request.url());
  });
  await page.goto("/docs/api");
  const sidebar = page.getByRole("complementary", { name: "Sidebar for Certify & CTF API" });
  await expect(sidebar.getByRole("link", { name: "Tests", exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(sidebar.getByRole("link", { name: "Competitions", exact: true })).toBeVisible();

  // Operations as a reader finds them: open a tag, follow an operation's link.
  await sidebar.getByRole("button", { name: "Open Group - Webhooks", exact: true }).click();
  await expect(sidebar.getByRole("link", { name: /^Register a webhook endpoint/ })).toBeVisible();
  await sidebar.getByRole("button", { name: "Open Group - Tests", exact: true }).click();
  await sidebar.getByRole("link", { name: /^Create a test and send it/ }).click();
  const operation = page.getByRole("region", { name: "Create a test and send it" });
  await expect(operation.getByRole("heading", { name: "Create a test and send it" })).toBeVisible();

  // Its error answers, in the one error shape: the 422 lists every wrong field.
  await expect(operation.getByRole("button", { name: /^422 Field errors, all listed in error\.fields/ })).toBeVisible();
  await operation.getByRole("tab", { name: "Status: 422" }).click();
  const example = operation.getByRole("region", { name: /^Status: 201/ }).locator("code");
  await expect(example).toContainText('"error"');
  await expect(example).toContainText('"validation_failed"');
  await expect(example).toContainText('"fields"');
  await expect(example).toContainText('"request_id"');
  expect(foreign).toEqual([]);
});
