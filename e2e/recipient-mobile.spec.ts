import { expect, test, type Page } from "@playwright/test";
import { apiCall, keepScreenshot, signIn, uniqueEmail } from "./helpers";

/**
 * The recipient's test on a small phone (360 × 740), by keyboard only: Tab / Shift+Tab to move,
 * arrow keys and Space on the radios, Enter / Space on the buttons. No mouse in the recipient's
 * context: it only navigates to the link and presses keys. Nothing may scroll sideways.
 */

const WIDTH = 360;

/** What has the focus: `radio:<index in its group>:<checked|unchecked>`, `button:<accessible text>`, or the tag. */
async function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return "body";
    if (el instanceof HTMLInputElement && el.type === "radio") {
      const group = [...document.querySelectorAll<HTMLInputElement>(`input[type=radio][name="${el.name}"]`)];
      return `radio:${group.indexOf(el)}:${el.checked ? "checked" : "unchecked"}`;
    }
    const clone = el.cloneNode(true) as HTMLElement;
    clone.querySelectorAll("[aria-hidden=true]").forEach((hidden) => hidden.remove());
    const text = (el.getAttribute("aria-label") ?? clone.textContent ?? "").replace(/\s+/g, " ").trim();
    return `${el.tagName.toLowerCase()}:${text}`;
  });
}

/** Presses Tab (or Shift+Tab) until the focus matches; fails after `max` presses. */
async function tabTo(page: Page, target: RegExp, { back = false, max = 20 } = {}): Promise<void> {
  const seen: string[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(back ? "Shift+Tab" : "Tab");
    const now = await focused(page);
    seen.push(now);
    if (target.test(now)) return;
  }
  throw new Error(`${back ? "Shift+Tab" : "Tab"} never reached ${target} in ${max} presses; focus went: ${seen.join(" → ")}`);
}

async function expectFocus(page: Page, target: RegExp) {
  await expect.poll(() => focused(page)).toMatch(target);
}

async function expectNoSidewaysScroll(page: Page, view: string) {
  const widths = await page.evaluate(() => ({ document: document.documentElement.scrollWidth, body: document.body.scrollWidth, viewport: window.innerWidth }));
  expect(widths.viewport, "the viewport is the phone's").toBe(WIDTH);
  expect(widths.document, `no horizontal scrolling on the ${view} view`).toBeLessThanOrEqual(WIDTH);
  expect(widths.body, `no horizontal scrolling on the ${view} view`).toBeLessThanOrEqual(WIDTH);
}

/** The progress bar's value and the width of its filled part. */
async function expectProgress(page: Page, answered: number, total: number) {
  const bar = page.getByRole("progressbar", { name: "Progress" });
  await expect(bar).toHaveAttribute("aria-valuenow", String(answered));
  await expect(bar).toHaveAttribute("aria-valuetext", `${answered} of ${total} answered`);
  await expect(bar).toContainText(`${answered} of ${total} answered`);
  await expect
    .poll(() => bar.evaluate((el) => (el.lastElementChild?.firstElementChild as HTMLElement | null)?.style.width))
    .toBe(`${Math.round((answered / total) * 100)}%`);
}

async function expectChosen(page: Page, option: number) {
  const radios = page.getByRole("group").getByRole("radio");
  await expect(radios.nth(option)).toBeChecked();
  await expect(page.getByText("✓ Saved")).toBeVisible();
}

test("a recipient takes the whole test by keyboard on a 360 px phone, without sideways scrolling", async ({ browser, baseURL }, testInfo) => {
  test.setTimeout(120_000);
  const trainerContext = await browser.newContext({ permissions: ["clipboard-read", "clipboard-write"] });
  const phone = await browser.newContext({ viewport: { width: WIDTH, height: 740 }, isMobile: true, deviceScaleFactor: 2 });
  try {
    // The trainer creates a 4-question test for one person without e-mailing it, and copies the link.
    const trainer = await trainerContext.newPage();
    const email = uniqueEmail("mobile");
    await signIn(trainer, uniqueEmail("mobile-trainer"));
    // The trainer's own certification: 4 domains of one single-answer question with 4 options each
    // (the catalog also holds multiple-response questions, with check boxes: e2e/exam-multiple.spec.ts).
    const certification = await apiCall(trainer.request, baseURL!, "POST", "/api/v1/certifications", {
      name: "Acme Keyboard Basics",
      vendor: "Acme",
      domains: ["Accounts", "Billing", "Network", "Security"],
    });
    await apiCall(trainer.request, baseURL!, "POST", `/api/v1/certifications/${certification.id}/import?format=csv`, [
      "domain,question,option_a,option_b,option_c,option_d,correct,explanation",
      "Accounts,Where do you reset a password?,Settings,Billing,Reports,Help,A,Under Settings.",
      "Billing,Which plan has invoices?,Free,Pro,Trial,None,B,Only Pro.",
      "Network,Which port does HTTPS use?,80,21,443,25,C,TLS over TCP 443.",
      "Security,What does MFA add?,A longer password,A firewall,A VPN,A second factor,D,Something you have.",
    ].join("\n"));
    await trainer.goto("/tests/new");
    await trainer.getByRole("radio", { name: /Acme Keyboard Basics/ }).check();
    await expect(trainer.getByText("4 domains ticked")).toBeVisible();
    await trainer.getByLabel("Total questions").fill("4");
    await trainer.getByLabel("E-mail addresses").fill(`${email}, Mo Bile`);
    await expect(trainer.getByTestId("parsed-count")).toContainText("1 recipient");
    await trainer.getByRole("checkbox", { name: "Send e-mails" }).uncheck();
    await trainer.getByRole("button", { name: "Create test" }).click();
    await expect(trainer).toHaveURL(/\/tests\/[^/]+$/);
    const row = trainer.locator(`[data-testid="recipient-row"][data-email="${email}"]`);
    await expect(row).toHaveAttribute("data-status", "sent");
    await row.getByRole("button", { name: "Copy link" }).click();
    await expect(row.getByRole("button", { name: "Copied" })).toBeVisible();
    const link = await trainer.evaluate(() => navigator.clipboard.readText());
    expect(link).toMatch(/^http:\/\/localhost:\d+\/t\/[^/]+$/);

    // The recipient, keyboard only from here on.
    const page = await phone.newPage();
    await page.goto(link);
    // The start page; Start, pressed from the keyboard, starts the test.
    const startButton = page.getByRole("button", { name: "Start", exact: true });
    await startButton.focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { name: "Practice test for Mo Bile" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Question 1 of 4" })).toBeVisible();
    await expectProgress(page, 0, 4);
    await expectNoSidewaysScroll(page, "question");

    // Q1: Tab into the options (none chosen: the first gets the focus), Space chooses it.
    await tabTo(page, /^radio:0:unchecked$/);
    await page.keyboard.press("Space");
    await expectChosen(page, 0);
    await expectProgress(page, 1, 4);
    await keepScreenshot(page, "mobile-question", testInfo);
    await tabTo(page, /^button:Next$/); // Previous is disabled on the first question: skipped
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { name: "Question 2 of 4" })).toBeVisible();
    await expectFocus(page, /^h2:Question 2 of 4$/); // the new question's heading has the focus

    // Q2: ArrowDown moves to and chooses the second option.
    await tabTo(page, /^radio:0:unchecked$/);
    await page.keyboard.press("ArrowDown");
    await expectFocus(page, /^radio:1:checked$/);
    await expectChosen(page, 1);
    await expectProgress(page, 2, 4);
    await expectNoSidewaysScroll(page, "question");
    await tabTo(page, /^button:Next$/);
    await page.keyboard.press("Space");

    // Q3: down, down, up: the last choice (the second option) is the one kept; still one answer.
    await expect(page.getByRole("heading", { name: "Question 3 of 4" })).toBeVisible();
    await tabTo(page, /^radio:0:unchecked$/);
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowUp");
    await expectFocus(page, /^radio:1:checked$/);
    await expectChosen(page, 1);
    await expectProgress(page, 3, 4);
    await tabTo(page, /^button:Next$/);
    await page.keyboard.press("Enter");

    // Q4: ArrowUp from the first option wraps round to the last.
    await expect(page.getByRole("heading", { name: "Question 4 of 4" })).toBeVisible();
    await tabTo(page, /^radio:0:unchecked$/);
    await page.keyboard.press("ArrowUp");
    await expectFocus(page, /^radio:3:checked$/);
    await expectChosen(page, 3);
    await expectProgress(page, 4, 4);

    // Back to Q3 with Shift+Tab, check the answer is there, then forward again.
    await tabTo(page, /^button:Previous$/);
    await tabTo(page, /^button:Review$/);
    await tabTo(page, /^button:Previous$/, { back: true });
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { name: "Question 3 of 4" })).toBeVisible();
    await expectChosen(page, 1);
    await tabTo(page, /^radio:1:checked$/); // the group's tab stop is its chosen option
    await tabTo(page, /^button:Next$/);
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { name: "Question 4 of 4" })).toBeVisible();
    await tabTo(page, /^radio:3:checked$/);
    await tabTo(page, /^button:Review$/);
    await page.keyboard.press("Enter");

    // Review: everything answered; Submit, then confirm.
    await expect(page.getByRole("heading", { name: "Review" })).toBeVisible();
    await expectFocus(page, /^h2:Review$/);
    await expect(page.getByText("Every question is answered.")).toBeVisible();
    await expectProgress(page, 4, 4);
    await expectNoSidewaysScroll(page, "review");
    await keepScreenshot(page, "mobile-review", testInfo);
    await tabTo(page, /^button:Submit the test$/);
    await page.keyboard.press("Space");
    await expectFocus(page, /^p:Submit your 4 answers now\?/);
    await tabTo(page, /^button:Yes, submit my answers$/);
    await page.keyboard.press("Enter");

    // Result.
    await expect(page.getByRole("heading", { name: "Your result" })).toBeVisible();
    await expect(page.getByTestId("result-percent")).toHaveText(/^\d+(\.\d)?%$/);
    await expect(page.getByTestId("domain-result")).toHaveCount(4);
    await expect(page.getByText(/✓ Correct|✗ Incorrect/)).toHaveCount(4); // explanations loaded
    await expectNoSidewaysScroll(page, "result");
    // Each domain's score stands on its name's first line, whatever the name's length.
    for (const domain of await page.getByTestId("domain-result").all()) {
      const name = (await domain.getByTestId("domain-name").boundingBox())!;
      const score = (await domain.getByTestId("domain-score").boundingBox())!;
      expect(Math.abs(score.y - name.y), (await domain.getAttribute("data-domain")) ?? "domain").toBeLessThan(6);
      expect(score.x).toBeGreaterThanOrEqual(name.x + name.width);
    }
    // A recipient without an account has no student area to go back to.
    await expect(page.getByRole("link", { name: /Back to your classes/ })).toHaveCount(0);
    await keepScreenshot(page, "mobile-result", testInfo);

    await expect(row).toHaveAttribute("data-status", "completed", { timeout: 15_000 });
  } finally {
    await trainerContext.close();
    await phone.close();
  }
});

test("the dev mailbox and a sign-in e-mail with its long link fit a phone's width", async ({ browser }) => {
  const phone = await browser.newContext({ viewport: { width: WIDTH, height: 740 }, isMobile: true, deviceScaleFactor: 2 });
  try {
    const page = await phone.newPage();
    const email = uniqueEmail("a-rather-long-mailbox-address-for-wrapping");
    await page.goto("/signin");
    await page.getByLabel("E-mail address").fill(email);
    await page.getByRole("button", { name: "E-mail me a sign-in link" }).click();
    await expect(page.getByRole("heading", { name: "Check your e-mail" })).toBeVisible();
    await page.goto("/dev/mailbox");
    const entry = page.getByRole("listitem").filter({ has: page.getByTestId("mail-to").getByText(email, { exact: true }) });
    await expect(entry).toHaveCount(1);
    await expectNoSidewaysScroll(page, "dev mailbox");
    await entry.getByRole("link", { name: "Sign in to Certify" }).click();
    await expect(page.getByRole("heading", { name: "Text part" })).toBeVisible();
    await expectNoSidewaysScroll(page, "dev mailbox message");
  } finally {
    await phone.close();
  }
});
