import { expect, test, type Page } from "@playwright/test";
import { answerShown, api, keepScreenshot, signIn, uniqueEmail } from "./helpers";

/**
 * A draw per recipient and extra time (issue 23), as a trainer and recipients meet them:
 * (a) a test made in the dashboard with "A different set per recipient": two recipients open
 * their links, start, and hold different questions — each exactly their own answer sheet;
 * (b) extra time given in the dashboard shows on the start page and in the countdown; taken
 * shortened during the attempt, answers are still taken past the plain limit and the server's
 * deadline step submits at start + the limit + the extra time.
 * The minute is waited for real, as in test-settings.spec.ts: the deadline is a scheduled step.
 */

const CERTIFICATION = "AWS Certified Cloud Practitioner";
const DOMAINS = ["Cloud Concepts", "Security and Compliance"];

type Recipient = { id: number; email: string; link: string; status: string; started_at: string | null; completed_at: string | null; extra_time_minutes: number; deadline: string | null };
type TestJson = { code: string; draw: string; questions: number; domains: { id: number; questions: number }[]; recipients: Recipient[] };

const readTest = async (trainer: Page, code: string) => (await (await trainer.request.get(`/api/v1/tests/${code}`)).json()) as TestJson;

/** Starts the test on a recipient's page and reads every question's prompt, in the page's order, through the navigator. */
async function startAndReadPrompts(page: Page, link: string, count: number): Promise<string[]> {
  await page.goto(link);
  await page.getByRole("button", { name: "Start", exact: true }).click();
  await expect(page.getByRole("heading", { name: `Question 1 of ${count}` })).toBeVisible();
  const prompts: string[] = [];
  for (let n = 1; n <= count; n++) {
    await page.getByRole("navigation", { name: "Questions" }).getByRole("button", { name: new RegExp(`^Question ${n},`) }).click();
    await expect(page.getByRole("heading", { name: `Question ${n} of ${count}` })).toBeVisible();
    prompts.push((await page.locator("fieldset legend").first().textContent())!.trim());
  }
  return prompts;
}

test("a different set per recipient: two recipients, each with their own questions", async ({ browser }, testInfo) => {
  test.setTimeout(120_000);
  const trainerContext = await browser.newContext();
  const first = await browser.newContext();
  const second = await browser.newContext();
  try {
    const trainer = await trainerContext.newPage();
    const ada = uniqueEmail("draw-ada");
    const bob = uniqueEmail("draw-bob");
    await signIn(trainer, uniqueEmail("draw-trainer"));

    await trainer.goto("/tests/new");
    await trainer.getByRole("radio", { name: new RegExp(CERTIFICATION) }).check();
    await expect(trainer.getByTestId("selected-certification")).toContainText(CERTIFICATION);
    await trainer.getByRole("button", { name: "Untick all" }).click();
    for (const domain of DOMAINS) await trainer.getByRole("checkbox", { name: new RegExp(`^${domain} \\(`) }).check();
    await trainer.getByLabel("Total questions").fill("6");
    await trainer.getByRole("radio", { name: "A different set per recipient" }).check();
    await trainer.getByLabel("E-mail addresses").fill(`Ada <${ada}>\nBob <${bob}>`);
    await keepScreenshot(trainer, "exam-draw-new-test", testInfo);
    await trainer.getByRole("button", { name: "Create test" }).click();
    await expect(trainer).toHaveURL(/\/tests\/[^/]+$/);
    const code = (await trainer.getByTestId("test-code").textContent())!.trim();
    await expect(trainer.getByTestId("test-settings").locator('[data-setting="draw"]')).toHaveText("A different set of questions per recipient");

    const made = await readTest(trainer, code);
    expect(made).toMatchObject({ draw: "per_recipient", questions: 6, domains: [{ questions: 3 }, { questions: 3 }] });
    const linkOf = (email: string) => made.recipients.find((r) => r.email === email)!;

    const adaPrompts = await startAndReadPrompts(await first.newPage(), linkOf(ada).link, 6);
    const bobPage = await second.newPage();
    const bobPrompts = await startAndReadPrompts(bobPage, linkOf(bob).link, 6);
    await keepScreenshot(bobPage, "exam-draw-recipient", testInfo);

    // Each page shows exactly its recipient's own set, the one the answer sheet lists.
    for (const [email, prompts] of [
      [ada, adaPrompts],
      [bob, bobPrompts],
    ] as const) {
      const sheet = await api(trainer, "GET", `/api/v1/tests/${code}/recipients/${linkOf(email).id}/answers`);
      expect(sheet.questions).toBe(6);
      expect(sheet.answers.map((a: { prompt: string }) => a.prompt.trim())).toEqual(prompts);
    }
    expect(new Set(adaPrompts).size).toBe(6);
    // Two draws of 3 + 3 out of pools of a dozen or more each: the same set twice would be a broken draw.
    expect([...adaPrompts].sort()).not.toEqual([...bobPrompts].sort());
  } finally {
    await Promise.all([trainerContext.close(), first.close(), second.close()]);
  }
});

test("extra time: given in the dashboard, shown to the recipient; honoured past the limit, shortened during the attempt, the server submits at start + limit + extra", async ({ browser }, testInfo) => {
  test.setTimeout(240_000);
  const trainerContext = await browser.newContext();
  const recipientContext = await browser.newContext({ viewport: { width: 360, height: 780 } });
  try {
    const trainer = await trainerContext.newPage();
    const rita = uniqueEmail("extra-rita");
    await signIn(trainer, uniqueEmail("extra-trainer"));
    const [aws] = (await api(trainer, "GET", "/api/v1/certifications?search=Cloud%20Practitioner")).data;
    const [domain] = (await api(trainer, "GET", `/api/v1/certifications/${aws.id}/domains`)).data;
    const made: TestJson = await api(trainer, "POST", "/api/v1/tests", {
      certification_id: aws.id,
      domains: [domain.id],
      questions: 2,
      recipients: [{ email: rita, name: "Rita" }],
      send_email: false,
      time_limit_minutes: 1,
    });
    const code = made.code;

    // The trainer gives Rita 2 minutes of extra time on the test's page.
    await trainer.goto(`/tests/${code}`);
    const row = trainer.locator(`[data-testid="recipient-row"][data-email="${rita}"]`);
    await row.getByRole("button", { name: `Extra time for ${rita}` }).click();
    await row.getByLabel(`Extra minutes for ${rita}`).fill("2");
    await row.getByRole("button", { name: "Save" }).click();
    await expect(row.getByTestId("recipient-extra-time")).toHaveAttribute("data-minutes", "2");
    await expect(row.getByTestId("recipient-extra-time")).toContainText("+2 min extra time");
    await keepScreenshot(trainer, "exam-extra-time-dashboard", testInfo);
    expect((await readTest(trainer, code)).recipients[0]).toMatchObject({ extra_time_minutes: 2, deadline: null });

    // Rita's start page says her own time; after Start the countdown runs to start + 1 + 2 minutes.
    const recipient = await recipientContext.newPage();
    await recipient.goto(made.recipients[0].link);
    await expect(recipient.getByTestId("start-your-time")).toHaveText("1 + 2 minutes extra");
    await keepScreenshot(recipient, "exam-extra-time-start", testInfo);
    await recipient.getByRole("button", { name: "Start", exact: true }).click();
    await expect(recipient.getByRole("heading", { name: "Question 1 of 2" })).toBeVisible();
    await expect(recipient.getByTestId("time-left")).toHaveText(/^2:[3-5]\d$|^3:00$/);
    const started = (await readTest(trainer, code)).recipients[0];
    expect(Date.parse(started.deadline!) - Date.parse(started.started_at!)).toBe(3 * 60_000);
    await trainer.reload();
    await expect(row.getByTestId("recipient-deadline")).toHaveAttribute("data-deadline", started.deadline!);

    // The trainer shortens the extra time to 1 minute while she is on the page: her deadline is start + 1 + 1 minutes.
    const patched = await api(trainer, "PATCH", `/api/v1/tests/${code}/recipients/${started.id}`, { extra_time_minutes: 1 });
    const deadline = Date.parse(started.started_at!) + 2 * 60_000;
    expect(patched).toMatchObject({ extra_time_minutes: 1, deadline: new Date(deadline).toISOString() });

    // Reloaded, her page counts down to the new deadline.
    await recipient.reload();
    await expect(recipient.getByTestId("time-left")).toHaveText(/^1:[0-5]\d$|^2:00$/);

    // Past the plain 1-minute limit the server still takes her answers: the extra time is honoured.
    await recipient.waitForTimeout(Math.max(0, Date.parse(started.started_at!) + 65_000 - Date.now()));
    await answerShown(recipient, 0);
    expect((await readTest(trainer, code)).recipients[0]).toMatchObject({ status: "started", answered: 1 });
    await recipient.close();

    // Nobody on the page: the server's step submits the attempt at start + 1 + 1 minutes, not before.
    await expect
      .poll(async () => (await readTest(trainer, code)).recipients[0].status, { timeout: deadline - Date.now() + 30_000, intervals: [2_000] })
      .toBe("completed");
    expect((await readTest(trainer, code)).recipients[0].completed_at).toBe(new Date(deadline).toISOString());
    await trainer.reload();
    await expect(row).toHaveAttribute("data-status", "completed");
    await expect(row.getByRole("button", { name: `Extra time for ${rita}` })).toBeDisabled();
  } finally {
    await Promise.all([trainerContext.close(), recipientContext.close()]);
  }
});
