import { expect, test } from "@playwright/test";
import { api, expectNoSeriousViolations, keepScreenshot, pollStatus, signIn, uniqueEmail } from "./helpers";

/**
 * Announcements (issue 27): a visitor keeps a running competition's page open on a phone;
 * the organiser posts through the API the dashboard uses; the announcement appears without a
 * reload, with an unread count and said to screen readers; "Mark as read" clears the count,
 * which stays cleared after a reload. The organiser then posts and deletes one in the
 * dashboard's Announcements section, and the page follows.
 */
test("an announcement appears live on the competition's page with an unread count; reading clears it", async ({ page, browser }, testInfo) => {
  test.setTimeout(120_000);
  await signIn(page, uniqueEmail("announce-admin"));
  const now = Date.now();
  const ctf = await api(page, "POST", "/api/v1/ctfs", {
    title: `Announce CTF ${now}`,
    starts_at: new Date(now - 3_600_000).toISOString(),
    ends_at: new Date(now + 86_400_000).toISOString(),
    is_public: true,
  });
  await api(page, "POST", `/api/v1/ctfs/${ctf.id}/deploy`);
  await pollStatus(page, `/api/v1/ctfs/${ctf.id}`, "deployed");
  await api(page, "POST", `/api/v1/ctfs/${ctf.id}/announcements`, { title: "Welcome", body: "Good luck, everyone." });

  // A visitor on a phone: the first one is unread (a first visit has read nothing).
  const visitor = await (await browser.newContext({ viewport: { width: 360, height: 780 } })).newPage();
  await visitor.goto(`/c/${ctf.id}`);
  const panel = visitor.getByRole("region", { name: "Announcements", exact: true });
  const unread = visitor.getByTestId("announcements-unread");
  await expect(panel.getByRole("heading", { name: "Welcome" })).toBeVisible();
  await expect(unread).toHaveAttribute("data-count", "1");
  await panel.getByRole("button", { name: "Mark as read" }).click();
  await expect(unread).toHaveAttribute("data-count", "0");
  await expect(unread).toHaveText("");

  // The organiser posts: it appears without a reload, on top, counted, Markdown rendered, said politely.
  await api(page, "POST", `/api/v1/ctfs/${ctf.id}/announcements`, { title: "Hint released", body: "Look at `robots.txt` **first**." });
  const items = panel.getByTestId("announcement");
  await expect(items).toHaveCount(2, { timeout: 15_000 });
  await expect(items.first().getByRole("heading")).toHaveText("Hint released");
  await expect(items.first()).toHaveAttribute("data-unread", "true");
  await expect(items.first().locator("code", { hasText: "robots.txt" })).toBeVisible();
  await expect(items.first().locator("strong", { hasText: "first" })).toBeVisible();
  await expect(unread).toHaveText("1 new");
  await expect(visitor.getByTestId("announcements-live")).toHaveText("New announcement: Hint released");
  expect(await visitor.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  await expectNoSeriousViolations(visitor, "the competition page with an unread announcement");
  await keepScreenshot(visitor, "announcements-unread-phone", testInfo);

  // Reading clears it, and it stays read after a reload.
  await panel.getByRole("button", { name: "Mark as read" }).click();
  await expect(unread).toHaveAttribute("data-count", "0");
  await expect(items.first()).not.toHaveAttribute("data-unread", "true");
  await visitor.reload();
  await expect(unread).toHaveAttribute("data-count", "0");
  await expect(items).toHaveCount(2);

  // The dashboard: post one from the form, then delete it (asks first); the page follows.
  await page.goto(`/competitions/${ctf.id}`);
  const section = page.getByRole("region", { name: "Announcements", exact: true });
  await section.getByLabel("Title").fill("Scoreboard freeze");
  await section.getByLabel("Message").fill("The board freezes in **one hour**.");
  await section.getByRole("button", { name: "Post announcement" }).click();
  await expect(section.getByTestId("announcement-row").first()).toHaveAttribute("data-title", "Scoreboard freeze");
  await expect(items.first().getByRole("heading")).toHaveText("Scoreboard freeze", { timeout: 15_000 });
  await expect(unread).toHaveText("1 new");

  page.once("dialog", (dialog) => void dialog.accept());
  await section.getByTestId("announcement-row").first().getByRole("button", { name: "Delete Scoreboard freeze" }).click();
  await expect(section.getByTestId("announcement-row")).toHaveCount(2);
  await expect(items).toHaveCount(2, { timeout: 15_000 });
  await expect(items.first().getByRole("heading")).toHaveText("Hint released");
  await expect(unread).toHaveAttribute("data-count", "0");
  await expectNoSeriousViolations(page, "the dashboard's announcements section");
});
