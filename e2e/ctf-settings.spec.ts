import { expect, test } from "@playwright/test";
import { api, expectNoSeriousViolations, keepScreenshot, signIn, uniqueEmail } from "./helpers";

/**
 * An organiser sets a competition's and a challenge's settings in the dashboard: teams mode
 * with a team size limit and a scoreboard freeze (Edit details), then a dynamic challenge that
 * requires another one and allows three wrong tries, with tags; the list shows them and the
 * API answers them. After the start the mode can no longer change (the select is disabled and
 * says why).
 */

// Pickers read in UTC here, so a datetime-local value is the ISO time's first 16 characters.
test.use({ timezoneId: "UTC" });
const pickerValue = (at: Date) => at.toISOString().slice(0, 16);
const HOUR = 3_600_000;

test("an organiser sets teams mode and a freeze, and adds a dynamic challenge with a prerequisite, a try cap and tags", async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  await signIn(page, uniqueEmail("ctf-settings"));

  // A competition that starts tomorrow: its mode may still change.
  const startsAt = new Date(Math.ceil((Date.now() + 24 * HOUR) / 60_000) * 60_000);
  const ctf = await api(page, "POST", "/api/v1/ctfs", {
    title: `Settings CTF ${Date.now()}`,
    starts_at: startsAt.toISOString(),
    ends_at: new Date(startsAt.getTime() + 48 * HOUR).toISOString(),
  });
  expect(ctf).toMatchObject({ mode: "individual", team_size_max: null, freeze_at: null });
  await page.goto(`/competitions/${ctf.id}`);
  await expect(page.getByTestId("ctf-mode")).toHaveText("Individual");

  // Teams of up to 3, frozen an hour before the end.
  const freeze = new Date(startsAt.getTime() + 47 * HOUR);
  await page.getByText("Edit details").click();
  await page.getByLabel("Mode").selectOption("teams");
  await page.getByLabel("Team size limit (optional)").fill("3");
  await page.getByLabel("Scoreboard freeze (optional)").fill(pickerValue(freeze));
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByTestId("ctf-mode")).toHaveText("Teams of up to 3");
  await expect(page.getByTestId("ctf-freeze")).toBeVisible();
  expect(await api(page, "GET", `/api/v1/ctfs/${ctf.id}`)).toMatchObject({ mode: "teams", team_size_max: 3, freeze_at: freeze.toISOString() });

  // A freeze before the start is refused in the form, beside the field, before anything is sent.
  await page.getByText("Edit details").click();
  await page.getByLabel("Scoreboard freeze (optional)").fill(pickerValue(new Date(startsAt.getTime() - HOUR)));
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.locator("#edit-ctf-freeze-error")).toContainText("Must be after “Start”");
  // Cleared, the board never freezes.
  await page.getByRole("button", { name: "Clear freeze" }).click();
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByTestId("ctf-freeze")).toHaveCount(0);
  expect((await api(page, "GET", `/api/v1/ctfs/${ctf.id}`)).freeze_at).toBeNull();

  // The prerequisite: a static challenge.
  await page.locator("#challenge-title").fill("Opener");
  await page.locator("#challenge-category").selectOption("web");
  await page.locator("#challenge-points").fill("50");
  await page.locator("#challenge-flag").fill("CTF{opener}");
  await page.getByRole("button", { name: "Add challenge" }).click();
  await expect(page.getByTestId("challenge-row").filter({ hasText: "Opener" })).toBeVisible();

  // The dynamic one: 500 falling to 100 over 10 solves; Opener first; three wrong tries; two tags.
  await page.locator("#challenge-title").fill("Decaying Cookie");
  await page.locator("#challenge-category").selectOption("web");
  await page.getByLabel("Scoring").selectOption("dynamic");
  await expect(page.locator("#challenge-points")).toHaveCount(0);
  await page.getByLabel("Initial points").fill("500");
  await page.getByLabel("Minimum points").fill("600");
  await page.locator("#challenge-flag").fill("CTF{decaying}");
  await page.getByRole("group", { name: /Prerequisites/ }).getByRole("checkbox", { name: "Opener" }).check();
  await page.getByLabel("Max wrong tries (optional)").fill("3");
  await page.getByLabel("Tags (optional)").fill("web, cookies");
  // A minimum above the initial value is the contract's own check, shown before sending.
  await page.getByRole("button", { name: "Add challenge" }).click();
  await expect(page.locator("#challenge-minimum-error")).toBeVisible();
  await page.getByLabel("Minimum points").fill("100");
  await page.getByLabel("Solves to reach the minimum").fill("10");
  await page.locator("#challenge-flag").fill("CTF{decaying}");
  await page.getByRole("button", { name: "Add challenge" }).click();
  const row = page.getByTestId("challenge-row").filter({ hasText: "Decaying Cookie" });
  await expect(row).toContainText("Dynamic: 500 → 100 over 10 solves");
  await expect(row).toContainText("Prerequisites: Opener");
  await expect(row).toContainText("At most 3 wrong tries");
  await expect(row.getByTestId("challenge-tags")).toHaveText(/web\s*cookies/);
  await expect(row).toContainText("500");

  const listed = (await api(page, "GET", `/api/v1/ctfs/${ctf.id}/challenges`)).data as { title: string; id: string }[];
  const opener = listed.find((c) => c.title === "Opener")!;
  expect(listed.find((c) => c.title === "Decaying Cookie")).toMatchObject({
    points: 500,
    scoring: { type: "dynamic", initial: 500, minimum: 100, decay: 10 },
    requires: [opener.id],
    max_attempts: 3,
    tags: ["web", "cookies"],
  });
  await expectNoSeriousViolations(page, "the competition page with the settings filled in");
  await keepScreenshot(page, "ctf-settings", testInfo);
});

test("once the competition has started, its mode cannot change: the select is disabled and says why", async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, uniqueEmail("ctf-settings-started"));
  const ctf = await api(page, "POST", "/api/v1/ctfs", {
    title: `Started CTF ${Date.now()}`,
    starts_at: new Date(Date.now() - HOUR).toISOString(),
    ends_at: new Date(Date.now() + 24 * HOUR).toISOString(),
  });
  await api(page, "POST", `/api/v1/ctfs/${ctf.id}/deploy`);
  await expect.poll(async () => (await api(page, "GET", `/api/v1/ctfs/${ctf.id}`)).status, { timeout: 20_000 }).toBe("deployed");
  await page.goto(`/competitions/${ctf.id}`);
  await page.getByText("Edit details").click();
  const mode = page.getByLabel("Mode");
  await expect(mode).toBeDisabled();
  await expect(page.locator("#edit-ctf-mode-hint")).toContainText("The competition has started");
  // The team size and the freeze still change.
  await page.getByLabel("Scoreboard freeze (optional)").fill(pickerValue(new Date(Date.now() + 2 * HOUR)));
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByTestId("ctf-freeze")).toBeVisible();
  expect((await api(page, "GET", `/api/v1/ctfs/${ctf.id}`)).mode).toBe("individual");
});
