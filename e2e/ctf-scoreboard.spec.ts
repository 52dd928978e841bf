import { expect, test, type Browser, type Page } from "@playwright/test";
import { api, apiCall, expectNoSeriousViolations, keepScreenshot, mailboxLink, pollStatus, signIn, uniqueEmail } from "./helpers";

/**
 * The scoreboard of issue 27, on the built-in host. Two players solve a static and a dynamic
 * challenge: a visitor's page marks Ann's first blood with the challenge's title, and the
 * dynamic challenge's value falls for both solvers. Then the organiser sets `freeze_at`: Bob's
 * later solve moves the organiser's scoreboard (API) but not the public one, and the page says
 * "Frozen at …". The top ten's graph is drawn under the board, its figures under "Show as a
 * table"; the page is axe-clean and fits a 360 px phone.
 */

/** Invites `email`, accepts in a fresh browser context with a display name, opens the competition's page. */
async function player(browser: Browser, admin: Page, ctfId: string, name: string): Promise<Page> {
  const email = uniqueEmail(`board-${name.toLowerCase()}`);
  await api(admin, "POST", `/api/v1/ctfs/${ctfId}/members`, { email });
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

/** A player's flag through the players' route, with their cookie, from the page's origin. */
async function submit(player: Page, ctfId: string, challengeId: string, flag: string) {
  return apiCall(player.request, new URL(player.url()).origin, "POST", `/api/c/${ctfId}/challenges/${challengeId}/attempts`, { flag });
}

/** The visitor's rows as "name:score", in board order. */
const rowsOf = (page: Page) => page.getByTestId("scoreboard-row").evaluateAll((els) => els.map((el) => `${el.getAttribute("data-name")}:${el.getAttribute("data-score")}`));

test("first blood is marked, a dynamic value falls for every solver, a frozen public board stands still while the organiser's moves, and the graph has a table", async ({ page, browser }, testInfo) => {
  test.setTimeout(180_000);
  await signIn(page, uniqueEmail("board-admin"));
  const now = Date.now();
  const ctf = await api(page, "POST", "/api/v1/ctfs", {
    title: `Board CTF ${now}`,
    starts_at: new Date(now - 3_600_000).toISOString(),
    ends_at: new Date(now + 86_400_000).toISOString(),
    is_public: true,
  });
  await api(page, "POST", `/api/v1/ctfs/${ctf.id}/deploy`);
  await pollStatus(page, `/api/v1/ctfs/${ctf.id}`, "deployed");
  const publish = async (body: Record<string, unknown>) => {
    const challenge = await api(page, "POST", `/api/v1/ctfs/${ctf.id}/challenges`, { category: "web", description: "Find it.", hints: [], ...body });
    await api(page, "POST", `/api/v1/ctfs/${ctf.id}/challenges/${challenge.id}/publish`);
    await pollStatus(page, `/api/v1/ctfs/${ctf.id}/challenges/${challenge.id}`, "published");
    return challenge.id as string;
  };
  const cookieJar = await publish({ title: "Cookie Jar", points: 100, flag: "CTF{jar}" });
  // CTFd's formula: 500, then 496 after the second solve.
  const decaying = await publish({ title: "Decaying", points: 500, flag: "CTF{decay}", scoring: { type: "dynamic", initial: 500, minimum: 100, decay: 10 } });

  const ann = await player(browser, page, ctf.id, "Ann");
  const bob = await player(browser, page, ctf.id, "Bob");
  const visitor = await (await browser.newContext({ viewport: { width: 360, height: 800 } })).newPage();
  await visitor.goto(`/c/${ctf.id}`);

  // Ann solves both first; Bob the dynamic one: both now hold its current value, 496.
  expect((await submit(ann, ctf.id, cookieJar, "CTF{jar}")).status).toBe("correct");
  expect((await submit(ann, ctf.id, decaying, "CTF{decay}")).status).toBe("correct");
  expect(await submit(bob, ctf.id, decaying, "CTF{decay}")).toMatchObject({ status: "correct", score: 496 });
  await expect.poll(() => rowsOf(visitor), { timeout: 15_000 }).toEqual(["Ann:596", "Bob:496"]);

  // First blood: on Ann's row, naming both challenges; none on Bob's.
  const annRow = visitor.locator('[data-testid="scoreboard-row"][data-name="Ann"]');
  await expect(annRow.getByTestId("first-blood")).toContainText("First blood");
  await expect(annRow.getByTestId("first-blood")).toContainText("Cookie Jar");
  await expect(annRow.getByTestId("first-blood")).toContainText("Decaying");
  await expect(visitor.locator('[data-testid="scoreboard-row"][data-name="Bob"]').getByTestId("first-blood")).toHaveCount(0);
  const organiserBoard = await api(page, "GET", `/api/v1/ctfs/${ctf.id}/scoreboard`);
  expect(organiserBoard.data.map((e: { name: string; first_blood: string[] }) => [e.name, e.first_blood])).toEqual([
    ["Ann", [cookieJar, decaying]],
    ["Bob", []],
  ]);

  // The graph under the board, and its figures as a table.
  const graph = visitor.getByTestId("score-graph");
  await expect(graph).toBeVisible();
  await expect(graph.getByTestId("score-graph-chart").locator("svg.recharts-surface")).toBeVisible();
  await visitor.getByText("Show as a table").click();
  const table = visitor.getByRole("table", { name: /Scores of the top 2 over time/ });
  await expect(table).toBeVisible();
  await expect(table.getByRole("rowheader", { name: "Ann" })).toHaveCount(3);
  await expect(table.getByRole("rowheader", { name: "Bob" })).toHaveCount(2);
  expect(await visitor.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  await expectNoSeriousViolations(visitor, "the scoreboard with its graph and table");
  await keepScreenshot(visitor, "scoreboard-graph-phone", testInfo);

  // The organiser freezes the board now; Bob solves after: the organiser's board moves, the public one does not.
  await api(page, "PATCH", `/api/v1/ctfs/${ctf.id}`, { freeze_at: new Date().toISOString() });
  await expect.poll(async () => (await apiCall(visitor.request, new URL(visitor.url()).origin, "GET", `/api/c/${ctf.id}/scoreboard`)).frozen_at, { timeout: 10_000 }).not.toBeNull();
  expect(await submit(bob, ctf.id, cookieJar, "CTF{jar}")).toMatchObject({ status: "correct", score: 596 });
  const live = await api(page, "GET", `/api/v1/ctfs/${ctf.id}/scoreboard`);
  expect(live.data.map((e: { name: string; score: number }) => `${e.name}:${e.score}`)).toEqual(["Ann:596", "Bob:596"]);
  expect(live.data.find((e: { name: string }) => e.name === "Bob").solves).toBe(2);
  const frozen = await apiCall(visitor.request, new URL(visitor.url()).origin, "GET", `/api/c/${ctf.id}/scoreboard`);
  expect(frozen.data.map((e: { name: string; score: number; solves: number }) => `${e.name}:${e.score}:${e.solves}`)).toEqual(["Ann:596:2", "Bob:496:1"]);
  await expect(visitor.getByTestId("scoreboard-frozen")).toContainText("Frozen at", { timeout: 15_000 });
  await expect.poll(() => rowsOf(visitor)).toEqual(["Ann:596", "Bob:496"]);
  // Bob still sees his own solve and score on his page.
  await bob.reload();
  await expect(bob.getByTestId("player-score")).toHaveText("596");

  // Cleared, the public board shows everything again.
  await api(page, "PATCH", `/api/v1/ctfs/${ctf.id}`, { freeze_at: null });
  await expect(visitor.getByTestId("scoreboard-frozen")).toHaveCount(0, { timeout: 15_000 });
  await expect.poll(() => rowsOf(visitor), { timeout: 15_000 }).toEqual(["Ann:596", "Bob:596"]);
  await keepScreenshot(visitor, "scoreboard-unfrozen", testInfo);
});
