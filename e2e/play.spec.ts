import { expect, test, type Browser, type Page } from "@playwright/test";
import { keepScreenshot, mailboxLink, signIn, uniqueEmail } from "./helpers";

/**
 * Two players play a running competition: each accepts the e-mailed invitation (a name, a
 * button), submits wrong and right flags; one unlocks a hint. A visitor's page shows the
 * scoreboard ranking them, refreshed without a reload.
 */

async function api(page: Page, method: "GET" | "POST", path: string, data?: unknown) {
  const origin = new URL(page.url()).origin;
  const response = await page.request.fetch(path, { method, data, headers: { origin } });
  expect(response.status(), `${method} ${path}: ${await response.text()}`).toBeLessThan(300);
  return response.json();
}

async function poll(page: Page, path: string, status: string) {
  await expect.poll(async () => (await api(page, "GET", path)).status, { timeout: 20_000 }).toBe(status);
}

/** A new browser for the invitee: accepts with a display name, lands on the competition page as a player. */
async function joinAs(browser: Browser, admin: Page, email: string, name: string, ctfId: string): Promise<Page> {
  const link = await mailboxLink(admin, email, { timeout: 20_000 });
  const page = await (await browser.newContext()).newPage();
  await page.goto(link);
  await page.getByLabel("Display name").fill(name);
  await page.getByRole("button", { name: "Accept invitation" }).click();
  await expect(page.getByTestId("joined-message")).toBeVisible();
  await page.goto(`/c/${ctfId}`);
  await expect(page.getByTestId("player-name")).toHaveText(name);
  return page;
}

test("two players join, submit flags, unlock a hint; the public scoreboard ranks them live", async ({ page, browser }, testInfo) => {
  test.setTimeout(180_000);
  const admin = uniqueEmail("play-admin");
  const [annEmail, bobEmail] = [uniqueEmail("play-ann"), uniqueEmail("play-bob")];
  const flag = `CTF{play-${Date.now()}}`;
  await signIn(page, admin);

  // A running competition with one published challenge, through the API the dashboard uses.
  const now = Date.now();
  const ctf = await api(page, "POST", "/api/v1/ctfs", {
    title: `Play CTF ${now}`,
    starts_at: new Date(now - 3_600_000).toISOString(),
    ends_at: new Date(now + 86_400_000).toISOString(),
    is_public: true,
  });
  await api(page, "POST", `/api/v1/ctfs/${ctf.id}/deploy`);
  await poll(page, `/api/v1/ctfs/${ctf.id}`, "deployed");
  const challenge = await api(page, "POST", `/api/v1/ctfs/${ctf.id}/challenges`, {
    title: "Cookie Jar",
    category: "web",
    points: 150,
    description: "The admin panel trusts a cookie.",
    flag,
    hints: [{ text: "Look at what the server sets after login.", cost: 20 }],
  });
  await api(page, "POST", `/api/v1/ctfs/${ctf.id}/challenges/${challenge.id}/publish`);
  await poll(page, `/api/v1/ctfs/${ctf.id}/challenges/${challenge.id}`, "published");
  await api(page, "POST", `/api/v1/ctfs/${ctf.id}/members`, { email: annEmail });
  await api(page, "POST", `/api/v1/ctfs/${ctf.id}/members`, { email: bobEmail });

  // A visitor keeps the public page open: no content, the scoreboard only.
  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto(`/c/${ctf.id}`);
  const card = (p: Page) => p.locator(`[data-testid="public-challenge"][data-title="Cookie Jar"]`);
  await expect(card(visitor)).toBeVisible();
  await expect(card(visitor)).not.toContainText("trusts a cookie");
  await expect(visitor.getByRole("textbox", { name: /Flag for/ })).toHaveCount(0);

  const ann = await joinAs(browser, page, annEmail, "Ann", ctf.id);
  const bob = await joinAs(browser, page, bobEmail, "Bob", ctf.id);
  await expect(card(ann)).toContainText("The admin panel trusts a cookie.");
  await expect(ann.getByText(annEmail)).toHaveCount(0);

  // Ann: a wrong flag, then the right one.
  await ann.getByLabel("Flag for Cookie Jar").fill("CTF{nope}");
  await ann.getByRole("button", { name: "Submit flag" }).click();
  await expect(ann.getByTestId("flag-result")).toHaveAttribute("data-status", "incorrect");
  await ann.getByLabel("Flag for Cookie Jar").fill(flag);
  await ann.getByRole("button", { name: "Submit flag" }).click();
  await expect(card(ann)).toHaveAttribute("data-solved", "true");
  await expect(ann.getByTestId("player-score")).toHaveText("150");

  // Bob: the hint (its text only now), then the flag: 150 - 20.
  await expect(card(bob).getByTestId("hint-text")).toHaveCount(0);
  await bob.getByRole("button", { name: "Unlock hint 1 for 20 points" }).click();
  await expect(card(bob).getByTestId("hint-text")).toHaveText("Look at what the server sets after login.");
  await bob.getByLabel("Flag for Cookie Jar").fill(flag);
  await bob.getByRole("button", { name: "Submit flag" }).click();
  await expect(card(bob)).toHaveAttribute("data-solved", "true");
  await expect(bob.getByTestId("player-score")).toHaveText("130");

  // The visitor's scoreboard caught up without a reload, and ranks them.
  const rows = visitor.getByTestId("scoreboard-row");
  await expect(rows).toHaveCount(2, { timeout: 15_000 });
  await expect.poll(async () => rows.evaluateAll((els) => els.map((el) => `${el.getAttribute("data-name")}:${el.getAttribute("data-score")}`)), { timeout: 15_000 }).toEqual(["Ann:150", "Bob:130"]);
  expect(await visitor.content()).not.toContain(annEmail);
  await keepScreenshot(visitor, "play-scoreboard", testInfo);
  await keepScreenshot(bob, "play-player-page", testInfo);
});
