import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { api, keepScreenshot, mailboxLink, pollStatus, signIn, uniqueEmail, unshift } from "./helpers";

/**
 * Generated challenges in a browser: the organiser generates two (a file and a web target),
 * a player finds the ciphertext on the competition page and the target behind its link,
 * solves both by hand-made means (a shift, a forged cookie) and submits the flags.
 */

test("a player solves generated challenges from the competition page: a ciphertext shown inline, a web target with a cookie to forge", async ({ page, browser }, testInfo) => {
  test.setTimeout(180_000);
  const admin = uniqueEmail("gen-admin");
  const playerEmail = uniqueEmail("gen-player");
  await signIn(page, admin);

  const now = Date.now();
  const ctf = await api(page, "POST", "/api/v1/ctfs", { title: `Generated CTF ${now}`, starts_at: new Date(now - 3_600_000).toISOString(), ends_at: new Date(now + 86_400_000).toISOString() });
  await api(page, "POST", `/api/v1/ctfs/${ctf.id}/deploy`);
  await pollStatus(page, `/api/v1/ctfs/${ctf.id}`, "deployed");
  for (const [category, template] of [
    ["crypto", "caesars-diary"],
    ["web", "cookie-jar"],
  ]) {
    const pending = await api(page, "POST", `/api/v1/ctfs/${ctf.id}/challenges/generate`, { category, difficulty: "easy", template });
    await pollStatus(page, `/api/v1/ctfs/${ctf.id}/challenges/${pending.id}`, "draft");
    await api(page, "POST", `/api/v1/ctfs/${ctf.id}/challenges/${pending.id}/publish`);
    await pollStatus(page, `/api/v1/ctfs/${ctf.id}/challenges/${pending.id}`, "published");
  }
  await api(page, "POST", `/api/v1/ctfs/${ctf.id}/members`, { email: playerEmail });

  const link = await mailboxLink(page, playerEmail, { timeout: 20_000 });
  const context = await browser.newContext();
  const player = await context.newPage();
  await player.goto(link);
  await player.getByRole("button", { name: "Accept invitation" }).click();
  await expect(player.getByTestId("joined-message")).toBeVisible();
  await player.goto(`/c/${ctf.id}`);

  // Caesar's Diary: the ciphertext is on the page; one of 25 shifts reads.
  const diary = player.locator('[data-testid="public-challenge"][data-title="Caesar\'s Diary"]');
  await expect(diary.getByRole("link", { name: /Download diary\.txt/ })).toHaveAttribute("href", /\/artifact\/file$/);
  const cipher = (await diary.getByRole("figure", { name: "diary.txt of Caesar's Diary" }).locator("pre").textContent())!;
  const plain = Array.from({ length: 25 }, (_, i) => unshift(cipher, i + 1)).find((text) => /CTF\{[0-9a-f]{24}\}/.test(text))!;
  await diary.getByLabel("Flag for Caesar's Diary").fill(/CTF\{[0-9a-f]{24}\}/.exec(plain)![0]);
  await diary.getByRole("button", { name: "Submit flag" }).click();
  await expect(diary).toHaveAttribute("data-solved", "true");

  // Cookie Jar: the target opens in its own tab; sign in, forge the cookie, read the admin page.
  const jar = player.locator('[data-testid="public-challenge"][data-title="Cookie Jar"]');
  const [target] = await Promise.all([context.waitForEvent("page"), jar.getByRole("link", { name: /Open the target/ }).click()]);
  await expect(target.locator("body")).toContainText("The Cookie Jar");
  await target.goto(target.url().replace(/index$/, "login"));
  const session = (await context.cookies()).find((cookie) => cookie.name === "jar_session")!;
  const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(session.value, "base64").toString()), role: "admin" })).toString("base64");
  await context.addCookies([{ ...session, value: forged }]);
  await target.goto(target.url().replace(/login$/, "admin"));
  const flag = /CTF\{[0-9a-f]{24}\}/.exec((await target.locator("body").textContent())!)![0];
  await keepScreenshot(target, "generated-target-admin", testInfo);
  await jar.getByLabel("Flag for Cookie Jar").fill(flag);
  await jar.getByRole("button", { name: "Submit flag" }).click();
  await expect(jar).toHaveAttribute("data-solved", "true");
  await expect(player.getByTestId("player-score")).toHaveText("200");
  await keepScreenshot(player, "generated-player-page", testInfo);

  // The page with its artifacts stays accessible (no serious or critical axe violation).
  const { violations } = await new AxeBuilder({ page: player }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
  expect(violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical").map((violation) => violation.id)).toEqual([]);
});
