import { expect, test, type Page } from "@playwright/test";
import { mailboxLink, signIn, uniqueEmail } from "./helpers";

/**
 * Forms and messages as a newcomer meets them (issue 26): New test lists every problem on the
 * first submit, in the form's words; "Create a test" from a certification picks it; the
 * own-certification editor's counts follow a question added; the sign-in button says it is
 * sending and the next page names the address; an unknown page has the app's frame and a way back.
 */

const CERTIFICATION = "AWS Certified Cloud Practitioner";

/** The New test form, once its certification list has loaded (the form is hydrated by then). */
async function openNewTest(page: Page, query = "") {
  await page.goto(`/tests/new${query}`);
  await expect(page.getByRole("radio", { name: new RegExp(CERTIFICATION) })).toBeVisible();
}

test("New test lists every problem on the first submit, each once and in the form's words", async ({ page }) => {
  await signIn(page, uniqueEmail("forms-all-at-once"));
  await openNewTest(page);

  await page.getByRole("button", { name: "Create test" }).click();
  const listed = page.getByTestId("field-errors").getByRole("listitem");
  await expect(listed).toHaveText([
    "Certification: Choose a certification.",
    "Domains: Choose a certification, then tick at least one of its domains.",
    "Recipients: Enter at least one e-mail address.",
  ]);

  // Settings out of range come on the same submit as what is still missing.
  await page.getByLabel("Time limit (minutes)").fill("0");
  await page.getByLabel("Pass mark (%)").fill("150");
  await page.getByLabel("Reminder after (hours)").fill("-3");
  await page.getByRole("button", { name: "Create test" }).click();
  await expect(listed).toHaveText([
    "Certification: Choose a certification.",
    "Domains: Choose a certification, then tick at least one of its domains.",
    "Recipients: Enter at least one e-mail address.",
    "Time limit (minutes): At least 1 minute.",
    "Pass mark (%): At most 100.",
    "Reminder after (hours): At least 1 hour.",
  ]);
  await expect(page.getByLabel("Time limit (minutes)")).toHaveAccessibleDescription(/At least 1 minute\./);
  // No developer words anywhere in the form's messages.
  const form = page.locator("form").filter({ has: page.getByRole("button", { name: "Create test" }) });
  await expect(form).not.toContainText(/null|ISO 8601|expected string|>=/);

  // A picker left half filled is not read as "none".
  await page.getByLabel("Time limit (minutes)").fill("30");
  await page.locator("#test-opens-at").click();
  await page.keyboard.type("12");
  await page.getByRole("button", { name: "Create test" }).click();
  await expect(listed.filter({ hasText: "Opens:" })).toHaveText("Opens: Enter a date and time.");
  await expect(listed.filter({ hasText: "Time limit" })).toHaveCount(0);
});

test("“Create a test” on a certification's preview opens New test with that certification and its domains picked", async ({ page }) => {
  await signIn(page, uniqueEmail("forms-create-from"));
  await page.goto("/certifications");
  await page.getByRole("link", { name: CERTIFICATION }).first().click();
  await expect(page.getByRole("heading", { name: CERTIFICATION, level: 1 })).toBeVisible();
  await page.getByTestId("create-test-from-certification").click();

  await expect(page).toHaveURL(/\/tests\/new\?certification=\d+$/);
  await expect(page.getByTestId("selected-certification")).toHaveText(`Selected: ${CERTIFICATION}`);
  await expect(page.getByRole("radio", { name: new RegExp(CERTIFICATION) })).toBeChecked();
  await expect(page.getByRole("group", { name: "2. Domains" }).getByRole("checkbox", { checked: true }).first()).toBeVisible();
  // The other steps are the trainer's still: nothing but the certification and its domains was chosen.
  await page.getByRole("button", { name: "Create test" }).click();
  await expect(page.getByTestId("field-errors").getByRole("listitem")).toHaveText(["Recipients: Enter at least one e-mail address."]);
});

test("the own-certification editor's counts follow a question added, and its “Create a test” picks it", async ({ page }) => {
  await signIn(page, uniqueEmail("forms-editor-counts"));
  await page.goto("/certifications/new");
  await page.getByLabel("Name", { exact: true }).fill("Forms counting");
  await page.getByLabel("Vendor").fill("Acme");
  await page.getByLabel("Domains").fill("Domain 1");
  await page.getByRole("button", { name: "Create certification" }).click();
  await expect(page.getByRole("heading", { name: "Forms counting", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Questions (0)" })).toBeVisible();
  await expect(page.getByText("1 domain · 0 questions")).toBeVisible();

  await page.getByLabel("Question", { exact: true }).fill("Is this counted?");
  await page.locator("#new-question-option-0").fill("Yes");
  await page.locator("#new-question-option-1").fill("No");
  await page.getByRole("button", { name: "Add question" }).click();
  await expect(page.getByTestId("question-row").filter({ hasText: "Is this counted?" })).toBeVisible();

  // Without a reload: the page's description, the domain's row and heading, the list's heading.
  await expect(page.getByRole("heading", { name: "Questions (1)" })).toBeVisible();
  await expect(page.getByText("1 domain · 1 question.")).toBeVisible();
  await expect(page.locator('[data-testid="domain-row"][data-domain="Domain 1"]')).toContainText("· 1 question");
  await expect(page.getByRole("heading", { name: "Domain 1 · 1 question", exact: true })).toBeVisible();

  await page.getByTestId("create-test-from-certification").click();
  await expect(page.getByTestId("selected-certification")).toHaveText("Selected: Forms counting");
  await expect(page.getByRole("group", { name: "2. Domains" }).getByRole("checkbox", { name: /Domain 1/ })).toBeChecked();
});

test("the sign-in button says it is sending, and the next page names the address with a way to use another", async ({ page }) => {
  const email = uniqueEmail("forms-sign-in");
  await page.goto("/signin");
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await page.getByLabel("E-mail address").fill(email);

  // The form's request is held until the pending state has been seen, then let through.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    (url) => url.pathname === "/signin",
    async (route) => {
      if (route.request().method() === "POST") await held;
      await route.continue();
    },
  );
  await page.getByRole("button", { name: "E-mail me a sign-in link" }).click();
  await expect(page.getByRole("button", { name: "Sending link…" })).toBeDisabled();
  release();

  await expect(page.getByRole("heading", { name: "Check your e-mail" })).toBeVisible();
  await expect(page).toHaveURL(/\/signin\/check\?/);
  await expect(page.getByText("Certify", { exact: true })).toBeVisible();
  await expect(page.getByTestId("sign-in-address")).toHaveText(email);
  await page.unroute((url) => url.pathname === "/signin");

  // The link did go out to that address; "Use another address" goes back to the form.
  expect(await mailboxLink(page, email, { subject: "Sign in to Certify" })).toContain("/api/auth/callback/");
  await page.goBack();
  await page.getByRole("link", { name: "Use another address" }).click();
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await expect(page.getByLabel("E-mail address")).toHaveValue("");

  // A link crafted with a sentence in place of the address does not make the page say it.
  await page.goto(`/signin/check?${new URLSearchParams({ email: "Your account is locked, call +1 555 0100" })}`);
  await expect(page.getByText("A sign-in link is on its way.")).toBeVisible();
  await expect(page.getByTestId("sign-in-address")).toHaveCount(0);
  await expect(page.getByText("Your account is locked")).toHaveCount(0);
});

test("an unknown page has the app's frame and ways back; an unknown API path stays JSON", async ({ page, request }) => {
  const response = await page.goto("/no-such-page-anywhere");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found", level: 1 })).toBeVisible();
  await expect(page.getByText("Certify", { exact: true })).toBeVisible();
  const ways = page.getByRole("navigation", { name: "Ways back" });
  await expect(ways.getByRole("link")).toHaveText(["Your tests", "Sign in", "Home"]);
  await ways.getByRole("link", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();

  // A test that does not exist, inside the trainer area: the same page.
  await signIn(page, uniqueEmail("forms-not-found"));
  await page.goto("/tests/ZZZZ9999");
  await expect(page.getByRole("heading", { name: "Page not found", level: 1 })).toBeVisible();
  await page.getByRole("link", { name: "Your tests" }).click();
  await expect(page).toHaveURL(/\/tests$/);

  const api = await request.get("/api/v1/no-such-endpoint");
  expect(api.status()).toBe(404);
  expect(api.headers()["content-type"]).toContain("application/json");
  expect((await api.json()).error.code).toBe("not_found");
});
