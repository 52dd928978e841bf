import fs from "node:fs";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { api, keepScreenshot, mailboxLink, pollStatus, signIn, uniqueEmail, unshift } from "./helpers";

/**
 * Two players play a running competition: one invited by the organiser, one self-enrolled on
 * the public page; each accepts the e-mailed link (a name, a button), submits a wrong and a
 * right flag; one unlocks a paid hint, which asks first (Cancel leaves it locked). A visitor's page shows the scoreboard ranking them,
 * refreshed without a reload, the hint deducted. The organiser archives in the dashboard: the
 * snapshot holds those scores, and the public page shows the final scoreboard. Then a
 * standalone deployment is played by a visitor under a display name (its file downloaded),
 * and is no longer live once stopped; one of a generated challenge shows its player the
 * artifact, which solves it.
 */

/** A browser (new unless given) for the invitee: accepts with a display name, lands on the competition page as a player. */
async function joinAs(browser: Browser, admin: Page, email: string, name: string, ctfId: string, page?: Page): Promise<Page> {
  const link = await mailboxLink(admin, email, { timeout: 20_000 });
  page ??= await (await browser.newContext()).newPage();
  await page.goto(link);
  await page.getByLabel("Display name").fill(name);
  await page.getByRole("button", { name: "Accept invitation" }).click();
  await expect(page.getByTestId("joined-message")).toBeVisible();
  await page.goto(`/c/${ctfId}`);
  await expect(page.getByTestId("player-name")).toHaveText(name);
  return page;
}

test("one invited and one self-enrolled player play, the public scoreboard ranks them live; archived, the snapshot and the page keep the final scores", async ({ page, browser }, testInfo) => {
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
  await pollStatus(page, `/api/v1/ctfs/${ctf.id}`, "deployed");
  const challenge = await api(page, "POST", `/api/v1/ctfs/${ctf.id}/challenges`, {
    title: "Cookie Jar",
    category: "web",
    points: 150,
    description: "The admin panel trusts a `session` cookie. **Sign in** first; <script>window.injected = true</script>[javascript](javascript:window.injected=true)",
    flag,
    hints: [{ text: "Look at what the server sets after login.", cost: 20 }],
  });
  await api(page, "POST", `/api/v1/ctfs/${ctf.id}/challenges/${challenge.id}/publish`);
  await pollStatus(page, `/api/v1/ctfs/${ctf.id}/challenges/${challenge.id}`, "published");
  await api(page, "POST", `/api/v1/ctfs/${ctf.id}/members`, { email: annEmail });

  // A visitor keeps the public page open: no content, the scoreboard only.
  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto(`/c/${ctf.id}`);
  const card = (p: Page) => p.locator(`[data-testid="public-challenge"][data-title="Cookie Jar"]`);
  await expect(card(visitor)).toBeVisible();
  await expect(card(visitor)).not.toContainText("trusts a session cookie");
  await expect(visitor.getByRole("textbox", { name: /Flag for/ })).toHaveCount(0);

  await expect(visitor.getByTestId("ctf-phase")).toHaveText("Running now");

  // Ann by invitation; Bob enrols himself on the public page, then follows the e-mailed link.
  const ann = await joinAs(browser, page, annEmail, "Ann", ctf.id);
  const bob = await (await browser.newContext()).newPage();
  await bob.goto(`/c/${ctf.id}`);
  await bob.getByLabel("E-mail address").fill(bobEmail);
  await bob.getByRole("button", { name: "Join", exact: true }).click();
  await expect(bob.getByText("Check your e-mail")).toBeVisible();
  await joinAs(browser, page, bobEmail, "Bob", ctf.id, bob);
  await expect(card(ann)).toContainText("The admin panel trusts a session cookie. Sign in first;");
  await expect(ann.getByText(annEmail)).toHaveCount(0);

  // Ann: a wrong flag, then the right one.
  await ann.getByLabel("Flag for Cookie Jar").fill("CTF{nope}");
  await ann.getByRole("button", { name: "Submit flag" }).click();
  await expect(ann.getByTestId("flag-result")).toHaveAttribute("data-status", "incorrect");
  await ann.getByLabel("Flag for Cookie Jar").fill(flag);
  await ann.getByRole("button", { name: "Submit flag" }).click();
  await expect(card(ann)).toHaveAttribute("data-solved", "true");
  await expect(ann.getByTestId("player-score")).toHaveText("150");

  // The description is Markdown, rendered safely: backticks are code, raw HTML and javascript: links go nowhere.
  await expect(card(bob).locator("code", { hasText: "session" })).toBeVisible();
  await expect(card(bob).locator("strong", { hasText: "Sign in" })).toBeVisible();
  await expect(card(bob)).not.toContainText("`");
  await expect(card(bob).locator('script, a[href^="javascript"]')).toHaveCount(0);
  expect(await bob.evaluate(() => (window as unknown as { injected?: boolean }).injected)).toBeUndefined();

  // Bob: a wrong flag, the hint (its text only now), then the flag: 150 - 20.
  await bob.getByLabel("Flag for Cookie Jar").fill("CTF{cookies?}");
  await bob.getByRole("button", { name: "Submit flag" }).click();
  await expect(bob.getByTestId("flag-result")).toHaveAttribute("data-status", "incorrect");
  await expect(card(bob).getByTestId("hint-text")).toHaveCount(0);
  // A paid hint asks first, its cost in the question (which takes the focus); Cancel leaves it locked, nothing spent.
  const bobScore = bob.getByTestId("player-score");
  await expect(bobScore).toHaveText("0");
  const unlockHint = card(bob).getByRole("button", { name: "Unlock hint 1 for 20 points" });
  await unlockHint.click();
  const question = "Unlock hint 1 for 20 points? Your score drops by 20.";
  const confirmHint = card(bob).getByRole("group", { name: question });
  await expect(confirmHint.getByText(question)).toBeFocused();
  await confirmHint.getByRole("button", { name: "Cancel" }).click();
  await expect(confirmHint).toHaveCount(0);
  await expect(unlockHint).toBeFocused();
  await expect(card(bob).getByTestId("hint-text")).toHaveCount(0);
  await expect(bobScore).toHaveText("0");
  expect((await api(page, "GET", `/api/v1/ctfs/${ctf.id}/hint-unlocks`)).data).toEqual([]);
  // Confirmed: the text (focused), and its cost off the score.
  await unlockHint.click();
  await confirmHint.getByRole("button", { name: "Unlock for 20 points" }).click();
  await expect(card(bob).getByTestId("hint-text")).toHaveText("Look at what the server sets after login.");
  await expect(card(bob).getByTestId("hint-text")).toBeFocused();
  await expect(bobScore).toHaveText("-20");
  expect((await api(page, "GET", `/api/v1/ctfs/${ctf.id}/hint-unlocks`)).data).toHaveLength(1);
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

  // The organiser archives in the dashboard (a confirmation); the snapshot holds the scores.
  await page.goto(`/competitions/${ctf.id}`);
  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByTestId("ctf-actions").getByRole("button", { name: "Archive" }).click();
  await expect(page.getByTestId("ctf-status")).toHaveAttribute("data-status", "archived", { timeout: 20_000 });
  const snapshotRows = page.getByTestId("snapshot-score");
  await expect(snapshotRows).toHaveCount(2);
  expect(await snapshotRows.evaluateAll((els) => els.map((el) => `${el.getAttribute("data-name")}:${el.getAttribute("data-email")}`))).toEqual([`Ann:${annEmail}`, `Bob:${bobEmail}`]);
  await expect(snapshotRows.nth(0)).toContainText("150");
  await expect(snapshotRows.nth(1)).toContainText("130");
  const snapshot = await api(page, "GET", `/api/app/ctfs/${ctf.id}/snapshot`);
  expect(snapshot.scores.map((s: { name: string; score: number; solves: number }) => [s.name, s.score, s.solves])).toEqual([
    ["Ann", 150, 1],
    ["Bob", 130, 1],
  ]);
  expect(snapshot.attempts).toEqual([{ challenge_id: challenge.id, attempts: 4, correct: 2 }]);
  await keepScreenshot(page, "play-archived-snapshot", testInfo);

  // The archived page: the final scoreboard, read-only; no content, no flag box.
  await visitor.reload();
  await expect(visitor.getByTestId("ctf-phase")).toHaveText("Archived");
  await expect(visitor.getByRole("heading", { name: "Final scoreboard" })).toBeVisible();
  await expect.poll(async () => rows.evaluateAll((els) => els.map((el) => `${el.getAttribute("data-name")}:${el.getAttribute("data-score")}`))).toEqual(["Ann:150", "Bob:130"]);
  await ann.reload();
  await expect(ann.getByRole("textbox", { name: /Flag for/ })).toHaveCount(0);
  await expect(card(ann)).not.toContainText("trusts a session cookie");
  await expect(ann.getByTestId("player-name")).toHaveText("Ann");
  expect(await visitor.content()).not.toContain(bobEmail);
  await keepScreenshot(visitor, "play-archived-page", testInfo);
});

test("a standalone deployment is played under a display name, its file downloaded, its solve read by the organiser; once stopped it is no longer live", async ({ page, browser }, testInfo) => {
  test.setTimeout(120_000);
  await signIn(page, uniqueEmail("dep-admin"));
  const flag = `CTF{solo-${Date.now()}}`;
  const now = Date.now();
  const ctf = await api(page, "POST", "/api/v1/ctfs", { title: `Solo ${now}`, starts_at: new Date(now + 86_400_000).toISOString(), ends_at: new Date(now + 2 * 86_400_000).toISOString() });
  const challenge = await api(page, "POST", `/api/v1/ctfs/${ctf.id}/challenges`, {
    title: "Lone Cookie",
    category: "web",
    points: 80,
    description: "One cookie, one flag.",
    flag,
    hints: [{ text: "It is base64.", cost: 15 }],
  });
  const jar = Buffer.from(Array.from({ length: 1500 }, (_, i) => (i * 13) % 256));
  const uploaded = await page.request.post(`/api/v1/ctfs/${ctf.id}/challenges/${challenge.id}/files`, {
    headers: { origin: new URL(page.url()).origin },
    multipart: { file: { name: "cookie-jar.bin", mimeType: "application/octet-stream", buffer: jar } },
  });
  expect(uploaded.status(), await uploaded.text()).toBe(201);
  const deployment = await api(page, "POST", "/api/v1/deployments", { challenge_id: challenge.id, duration_minutes: 30 });
  await pollStatus(page, `/api/v1/deployments/${deployment.id}`, "live");

  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto(`/d/${deployment.id}`);
  await expect(visitor.getByRole("heading", { name: "Lone Cookie", level: 1 })).toBeVisible();
  await expect(visitor.getByText("One cookie, one flag.")).toBeVisible();
  await expect(visitor.getByText("It is base64.")).toHaveCount(0);
  await expect(visitor.getByRole("textbox", { name: /Flag for/ })).toHaveCount(0);
  await expect(visitor.getByTestId("challenge-file")).toHaveCount(0);

  await visitor.getByLabel("Display name").fill("Trinity");
  await visitor.getByRole("button", { name: "Play", exact: true }).click();
  await expect(visitor.getByTestId("player-name")).toHaveText("Trinity");
  // The challenge's file, downloaded through the deployment's route.
  const fileLink = visitor.getByRole("list", { name: "Files of Lone Cookie" }).getByRole("link", { name: "cookie-jar.bin" });
  await expect(fileLink).toHaveAttribute("href", new RegExp(`^/api/d/${deployment.id}/files/fil_`));
  const [download] = await Promise.all([visitor.waitForEvent("download"), fileLink.click()]);
  expect(download.suggestedFilename()).toBe("cookie-jar.bin");
  expect(fs.readFileSync(await download.path()).equals(jar)).toBe(true);
  await visitor.getByLabel("Flag for Lone Cookie").fill("CTF{nope}");
  await visitor.getByRole("button", { name: "Submit flag" }).click();
  await expect(visitor.getByTestId("flag-result")).toHaveAttribute("data-status", "incorrect");
  await visitor.getByRole("button", { name: "Unlock hint 1 for 15 points" }).click();
  await visitor.getByRole("group", { name: "Unlock hint 1 for 15 points? Your score drops by 15." }).getByRole("button", { name: "Unlock for 15 points" }).click();
  await expect(visitor.getByTestId("hint-text")).toHaveText("It is base64.");
  await visitor.getByLabel("Flag for Lone Cookie").fill(flag);
  await visitor.getByRole("button", { name: "Submit flag" }).click();
  await expect(visitor.getByTestId("public-challenge")).toHaveAttribute("data-solved", "true");
  await expect(visitor.getByTestId("player-score")).toHaveText("65");
  await keepScreenshot(visitor, "deployment-played", testInfo);

  const solves = await api(page, "GET", `/api/v1/deployments/${deployment.id}/solves`);
  expect(solves.data).toEqual([{ player_id: expect.stringMatching(/^dpl_/), name: "Trinity", points: 80, hints_cost: 15, score: 65, attempts: 2, solved_at: expect.any(String) }]);

  // The organiser's dashboard lists the solve with the deployment.
  await page.goto(`/competitions/${ctf.id}`);
  const row = page.locator(`[data-testid="deployment-row"][data-deployment-id="${deployment.id}"]`);
  await row.getByText("Show").click();
  await expect(row.getByTestId("deployment-solve")).toHaveAttribute("data-name", "Trinity");
  await expect(row.getByTestId("deployment-solve")).toHaveAttribute("data-score", "65");

  await api(page, "POST", `/api/v1/deployments/${deployment.id}/stop`);
  await visitor.reload();
  await expect(visitor.getByTestId("deployment-state")).toHaveText("This challenge is no longer live");
  await expect(visitor.getByTestId("deployment-title")).toHaveText("Lone Cookie");
  await keepScreenshot(visitor, "deployment-no-longer-live", testInfo);
});

test("a standalone deployment of a generated challenge shows its player the artifact: the ciphertext inline and its download, which solve it", async ({ page, browser }, testInfo) => {
  test.setTimeout(120_000);
  await signIn(page, uniqueEmail("dep-gen-admin"));
  const now = Date.now();
  const ctf = await api(page, "POST", "/api/v1/ctfs", { title: `Solo generated ${now}`, starts_at: new Date(now + 86_400_000).toISOString(), ends_at: new Date(now + 2 * 86_400_000).toISOString() });
  const pending = await api(page, "POST", `/api/v1/ctfs/${ctf.id}/challenges/generate`, { category: "crypto", difficulty: "easy", template: "caesars-diary" });
  await pollStatus(page, `/api/v1/ctfs/${ctf.id}/challenges/${pending.id}`, "draft");
  const deployment = await api(page, "POST", "/api/v1/deployments", { challenge_id: pending.id, duration_minutes: 30 });
  await pollStatus(page, `/api/v1/deployments/${deployment.id}`, "live");

  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto(`/d/${deployment.id}`);
  await expect(visitor.getByTestId("challenge-artifact")).toHaveCount(0);
  await visitor.getByLabel("Display name").fill("Morpheus");
  await visitor.getByRole("button", { name: "Play", exact: true }).click();
  await expect(visitor.getByTestId("player-name")).toHaveText("Morpheus");

  const artifact = visitor.getByTestId("challenge-artifact");
  const cipher = (await artifact.getByRole("figure", { name: "diary.txt of Caesar's Diary" }).locator("pre").textContent())!;
  const fileLink = artifact.getByRole("link", { name: /Download diary\.txt/ });
  await expect(fileLink).toHaveAttribute("href", `/api/d/${deployment.id}/artifact/file`);
  const [download] = await Promise.all([visitor.waitForEvent("download"), fileLink.click()]);
  expect(download.suggestedFilename()).toBe("diary.txt");
  expect(fs.readFileSync(await download.path(), "utf8")).toBe(cipher);
  await keepScreenshot(visitor, "deployment-generated-artifact", testInfo);

  // One of 25 shifts reads; its flag solves the deployment.
  const flag = Array.from({ length: 25 }, (_, i) => unshift(cipher, i + 1))
    .map((text) => /CTF\{[0-9a-f]{24}\}/.exec(text)?.[0])
    .find(Boolean)!;
  await visitor.getByLabel("Flag for Caesar's Diary").fill(flag);
  await visitor.getByRole("button", { name: "Submit flag" }).click();
  await expect(visitor.getByTestId("public-challenge")).toHaveAttribute("data-solved", "true");
});
