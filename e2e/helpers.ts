import AxeBuilder from "@axe-core/playwright";
import { expect, type APIRequestContext, type Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import path from "node:path";

/** An address no other test (or earlier run on the same database) has used. */
export function uniqueEmail(label: string): string {
  return `e2e-${label}-${Date.now()}-${randomBytes(3).toString("hex")}@example.com`;
}

const followedLinks = new Set<string>();

/**
 * The whole magic-link sign-in: ask for a link, find it in the dev mailbox (served by the
 * built app because the config sets DEV_MAILBOX=true), follow it, land on /tests.
 */
export async function signIn(page: Page, email: string): Promise<void> {
  await page.goto("/signin");
  await signInOnThisPage(page, email);
  await expect(page).toHaveURL(/\/tests$/);
  await expectSignedIn(page, email);
}

/**
 * The magic-link part of a sign-in, from a sign-in page already open (e.g. reached through
 * "Sign in to join", so it carries a callbackUrl): ask for the link, follow it from the dev
 * mailbox. Where it lands is the caller's to check.
 */
export async function signInOnThisPage(page: Page, email: string): Promise<void> {
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await page.getByLabel("E-mail address").fill(email);
  await page.getByRole("button", { name: "E-mail me a sign-in link" }).click();
  await expect(page.getByRole("heading", { name: "Check your e-mail" })).toBeVisible();

  // Newest mail first; a link already followed (an earlier sign-in) does not count.
  const link = await mailboxLink(page, email, { subject: "Sign in to Certify", fresh: true });
  followedLinks.add(link);
  expect(new URL(link).host, "magic links point at localhost (cookies)").toBe(new URL(page.url()).host);
  await page.goto(link);
}

/**
 * The link of the newest dev-mailbox e-mail to `email` (optionally with this subject),
 * waiting for it to arrive. `fresh`: a link already followed by signIn does not count.
 * Leaves the page on /dev/mailbox.
 */
export async function mailboxLink(
  page: Page,
  email: string,
  options: { subject?: string | RegExp; fresh?: boolean; timeout?: number } = {},
): Promise<string> {
  let link: string | null = null;
  await expect(async () => {
    await page.goto("/dev/mailbox");
    await expect(page.getByRole("heading", { name: "Dev mailbox" })).toBeVisible();
    let entries = page.getByRole("listitem").filter({ has: page.getByTestId("mail-to").getByText(email, { exact: true }) });
    if (options.subject) entries = entries.filter({ has: page.getByRole("link", { name: options.subject }) });
    link = await entries.first().getByTestId("mail-link").getAttribute("href", { timeout: 2_000 });
    expect(link, `an e-mail to ${email} with a link`).toBeTruthy();
    if (options.fresh) expect(followedLinks.has(link!), "the newest link is a fresh one").toBe(false);
  }).toPass({ timeout: options.timeout ?? 15_000 });
  return link!;
}

export async function expectSignedIn(page: Page, email: string): Promise<void> {
  const nav = page.getByRole("navigation", { name: "Trainer area" });
  await expect(nav).toBeVisible();
  // On a phone the sections are behind the "Menu" button (components/dashboard/nav.tsx): open it, check, close it.
  const menu = nav.getByRole("button", { name: /^Menu/ });
  const onPhone = await menu.isVisible();
  if (onPhone) await menu.click();
  for (const label of ["Tests", "Classes", "Certifications", "Competitions", "Webhooks", "API keys"]) {
    await expect(nav.getByRole("link", { name: label, exact: true })).toBeVisible();
  }
  if (onPhone) {
    await menu.click();
    await expect(menu).toHaveAttribute("aria-expanded", "false");
  }
  await expect(page.getByText(email, { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
}

/** Full-page screenshot kept under e2e/artifacts/screenshots/ (and attached to the report). */
export async function keepScreenshot(page: Page, name: string, testInfo: import("@playwright/test").TestInfo) {
  if (process.env.E2E_ARTIFACTS === "off") return;
  const file = path.join(testInfo.project.testDir, "artifacts", "screenshots", `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await testInfo.attach(name, { path: file, contentType: "image/png" });
}

/** Caesar's shift undone by `key`: how a player reads Caesar's Diary (one of 25 keys reads). */
export const unshift = (text: string, key: number) =>
  text.replace(/[A-Za-z]/g, (char) => {
    const base = char <= "Z" ? 65 : 97;
    return String.fromCharCode(base + ((char.charCodeAt(0) - base + 26 - key) % 26));
  });

/**
 * A same-origin JSON call with a context's cookies (a trainer's session, a player's, or
 * nobody's), as the app's own pages make it; an answer of 300 or more fails the test.
 */
export async function apiCall(request: APIRequestContext, origin: string, method: string, path: string, data?: unknown) {
  const response = await request.fetch(path, { method, data, headers: { origin } });
  expect(response.status(), `${method} ${path}: ${await response.text()}`).toBeLessThan(300);
  return response.json();
}

/** `apiCall` with the page's own context and origin. */
export async function api(page: Page, method: string, path: string, data?: unknown) {
  return apiCall(page.request, new URL(page.url()).origin, method, path, data);
}

/** Waits (20 s at most) until `GET path` answers an object in this status. */
export async function pollStatus(page: Page, path: string, status: string) {
  await expect.poll(async () => (await api(page, "GET", path)).status, { timeout: 20_000 }).toBe(status);
}

/**
 * axe on the page once it has settled: no serious or critical violation of WCAG 2.1 A/AA and
 * best practice. Settled means it has its title again: while the App Router refreshes a page's
 * server data (after Start, say) Next.js takes the `<title>` out for a few hundred
 * milliseconds and puts the new one in (seen with the page rendered as ever, not only from its
 * shell), and an axe run in that moment reports a document without a title.
 */
export async function expectNoSeriousViolations(page: Page, what: string) {
  await expect(page).toHaveTitle(/\S/);
  const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
  const serious = violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes.map((node) => node.target.join(" ")).slice(0, 3).join("; ")}`);
  expect(serious, `serious or critical axe violations on ${what}`).toEqual([]);
}

/**
 * Answers the question on screen from option `option` on and waits until it is saved: its
 * radio, or — a multiple-response question ("Choose 2", issue 23; the catalog has some) — as
 * many check boxes as it asks for, from `option` on (wrapping). Returns the positions checked.
 */
export async function answerShown(page: Page, option = 0): Promise<number[]> {
  const group = page.getByRole("group");
  const boxes = group.getByRole("checkbox");
  const count = await boxes.count();
  if (count === 0) {
    await group.getByRole("radio").nth(option).check();
    await expect(group.getByRole("radio").nth(option)).toBeChecked();
    await expect(page.getByText("✓ Saved")).toBeVisible();
    return [option];
  }
  const choose = Number((await page.getByTestId("choose-hint").textContent())!.match(/Choose (\d+)/)![1]);
  const positions = Array.from({ length: choose }, (_, i) => (option + i) % count);
  for (const position of positions) await boxes.nth(position).check();
  await expect(page.getByText("✓ Saved")).toBeVisible();
  return positions;
}
