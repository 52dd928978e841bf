import { expect, test, type Browser, type Page } from "@playwright/test";
import { api, expectNoSeriousViolations, keepScreenshot, mailboxLink, pollStatus, signIn, uniqueEmail } from "./helpers";

/**
 * Teams and play gating (issue 27). Two players of a teams-mode competition, each in their own
 * browser: Ann creates a team on the page, Bob joins it with the invite code she copies; Ann
 * solves a challenge and Bob's page shows it solved for him too, with no flag box; the
 * organiser's Teams section lists both. Then, in an individual competition, a locked challenge
 * opens once its prerequisite is solved, and a challenge capped at two wrong tries closes.
 */

/** A running competition (built-in host) with the given extra settings, deployed. */
async function runningCompetition(page: Page, title: string, settings: Record<string, unknown> = {}) {
  const now = Date.now();
  const ctf = await api(page, "POST", "/api/v1/ctfs", {
    title: `${title} ${now}`,
    starts_at: new Date(now - 3_600_000).toISOString(),
    ends_at: new Date(now + 86_400_000).toISOString(),
    is_public: true,
    ...settings,
  });
  await api(page, "POST", `/api/v1/ctfs/${ctf.id}/deploy`);
  await pollStatus(page, `/api/v1/ctfs/${ctf.id}`, "deployed");
  return ctf.id as string;
}

/** A published challenge (`extra`: requires, max_attempts…). */
async function published(page: Page, ctfId: string, title: string, flag: string, extra: Record<string, unknown> = {}) {
  const challenge = await api(page, "POST", `/api/v1/ctfs/${ctfId}/challenges`, { title, category: "web", points: 100, description: `About ${title}.`, flag, hints: [], ...extra });
  await api(page, "POST", `/api/v1/ctfs/${ctfId}/challenges/${challenge.id}/publish`);
  await pollStatus(page, `/api/v1/ctfs/${ctfId}/challenges/${challenge.id}`, "published");
  return challenge.id as string;
}

/** Invites `email`, accepts in a fresh browser context with a display name, opens the competition's page. */
async function player(browser: Browser, admin: Page, ctfId: string, name: string): Promise<Page> {
  const email = uniqueEmail(`teams-${name.toLowerCase()}`);
  await api(admin, "POST", `/api/v1/ctfs/${ctfId}/members`, { email });
  const link = await mailboxLink(admin, email, { timeout: 20_000 });
  const page = await (await browser.newContext({ permissions: ["clipboard-read", "clipboard-write"] })).newPage();
  await page.goto(link);
  await page.getByLabel("Display name").fill(name);
  await page.getByRole("button", { name: "Accept invitation" }).click();
  await expect(page.getByTestId("joined-message")).toBeVisible();
  await page.goto(`/c/${ctfId}`);
  await expect(page.getByTestId("player-name")).toHaveText(name);
  return page;
}

const card = (page: Page, title: string) => page.locator(`[data-testid="public-challenge"][data-title="${title}"]`);

test("two players in one team share a solve; the organiser sees the team", async ({ page, browser }, testInfo) => {
  test.setTimeout(180_000);
  await signIn(page, uniqueEmail("teams-admin"));
  const ctfId = await runningCompetition(page, "Teams CTF", { mode: "teams", team_size_max: 2 });
  await published(page, ctfId, "Shared Secret", "CTF{together}");
  const ann = await player(browser, page, ctfId, "Ann");
  const bob = await player(browser, page, ctfId, "Bob");

  // Without a team: no flag box, the panel's two forms.
  await expect(card(ann, "Shared Secret").getByTestId("team-required")).toBeVisible();
  await expect(ann.getByRole("textbox", { name: "Flag for Shared Secret" })).toHaveCount(0);
  await ann.getByLabel("Team name").fill("Null Pointers");
  await ann.getByRole("button", { name: "Create team" }).click();
  const mine = ann.getByTestId("my-team");
  await expect(mine).toHaveAttribute("data-team", "Null Pointers");
  const code = (await ann.getByTestId("invite-code").textContent())!.trim();
  expect(code).toMatch(/^[A-Za-z0-9_-]{16}$/);

  // Bob joins with the code, on a phone-sized page.
  await bob.setViewportSize({ width: 360, height: 780 });
  await bob.getByLabel("Invite code").fill(code);
  await bob.getByRole("button", { name: "Join team" }).click();
  await expect(bob.getByTestId("my-team")).toHaveAttribute("data-team", "Null Pointers");
  await expect(bob.getByTestId("team-members").getByRole("listitem")).toHaveText(["Ann", "Bob"]);
  expect(await bob.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  await expectNoSeriousViolations(bob, "the competition page with a team");
  await keepScreenshot(bob, "teams-panel-phone", testInfo);

  // Ann solves; Bob's page shows it solved for the team, with no flag box.
  await ann.reload();
  await ann.getByLabel("Flag for Shared Secret").fill("CTF{together}");
  await card(ann, "Shared Secret").getByRole("button", { name: "Submit flag" }).click();
  await expect(card(ann, "Shared Secret")).toHaveAttribute("data-solved", "true");
  await bob.reload();
  await expect(card(bob, "Shared Secret")).toHaveAttribute("data-solved", "true");
  await expect(bob.getByRole("textbox", { name: "Flag for Shared Secret" })).toHaveCount(0);
  await expect(bob.getByTestId("player-score")).toHaveText("100");

  // The organiser's Teams section lists the team with both members.
  await page.goto(`/competitions/${ctfId}`);
  const row = page.getByTestId("team-row").filter({ hasText: "Null Pointers" });
  await expect(row.getByTestId("team-member")).toHaveCount(2);
  await expectNoSeriousViolations(page, "the dashboard's Teams section");
});

test("a locked challenge opens after its prerequisite; an attempt cap closes a challenge", async ({ page, browser }, testInfo) => {
  test.setTimeout(180_000);
  await signIn(page, uniqueEmail("gates-admin"));
  const ctfId = await runningCompetition(page, "Gates CTF");
  const gate = await published(page, ctfId, "Gate", "CTF{gate}");
  await published(page, ctfId, "Vault", "CTF{vault}", { requires: [gate] });
  await published(page, ctfId, "Two Tries", "CTF{careful}", { max_attempts: 2 });
  const ann = await player(browser, page, ctfId, "Ann");

  // Locked: what opens it, and nothing of its content.
  const vault = card(ann, "Vault");
  await expect(vault).toHaveAttribute("data-locked", "true");
  await expect(vault.getByTestId("challenge-locked")).toHaveText("Locked — solve “Gate” first.");
  await expect(vault).not.toContainText("About Vault.");
  await expect(ann.getByRole("textbox", { name: "Flag for Vault" })).toHaveCount(0);
  await expectNoSeriousViolations(ann, "the competition page with a locked challenge");

  await ann.getByLabel("Flag for Gate").fill("CTF{gate}");
  await card(ann, "Gate").getByRole("button", { name: "Submit flag" }).click();
  await expect(card(ann, "Gate")).toHaveAttribute("data-solved", "true");
  await expect(vault).not.toHaveAttribute("data-locked", "true");
  await expect(vault).toContainText("About Vault.");
  await ann.getByLabel("Flag for Vault").fill("CTF{vault}");
  await vault.getByRole("button", { name: "Submit flag" }).click();
  await expect(vault).toHaveAttribute("data-solved", "true");

  // Capped at two wrong tries: counted down, then closed.
  const capped = card(ann, "Two Tries");
  await expect(capped.getByTestId("attempts-left")).toHaveText("2 of 2 wrong tries left");
  for (const [guess, left] of [
    ["CTF{one}", "1 of 2 wrong tries left"],
    ["CTF{two}", null],
  ] as const) {
    await ann.getByLabel("Flag for Two Tries").fill(guess);
    await capped.getByRole("button", { name: "Submit flag" }).click();
    if (left) await expect(capped.getByTestId("attempts-left")).toHaveText(left);
  }
  await expect(capped).toHaveAttribute("data-closed", "true");
  await expect(capped.getByTestId("attempts-closed")).toHaveText("Closed: 2 wrong tries used.");
  await expect(ann.getByRole("textbox", { name: "Flag for Two Tries" })).toHaveCount(0);
  await keepScreenshot(ann, "gates-locked-and-closed", testInfo);
});
