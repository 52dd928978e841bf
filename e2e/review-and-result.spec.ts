import { expect, test, type Page } from "@playwright/test";
import { apiCall, expectNoSeriousViolations, keepScreenshot, signIn, uniqueEmail } from "./helpers";

/**
 * What a recipient reads before and after submitting (issue 26), on a 360-px phone: the review
 * lists every question's text with the option(s) chosen, "Not answered" where none is, each a
 * way back to its question (a long text cut to two lines on screen, whole for a screen reader);
 * the result says the score against the pass mark ("66.7% — the pass mark is 80%").
 */

const WIDTH = 360;
const LONG =
  "A question long enough to be cut on a phone: which of these, read to the end, says what the test asks about its last words, " +
  "written out in full so that it takes more than two lines on a narrow screen, and ends here?";
const QUESTIONS = [
  { prompt: "Which planet is known as the red planet?", type: "single", options: ["Venus", "Mars", "Jupiter"], correct: 1, explanation: "Mars looks red." },
  { prompt: "Which two numbers are even?", type: "multiple", options: ["Two", "Three", "Four", "Five"], correct: [0, 2], explanation: "Two and four divide by two." },
  { prompt: LONG, type: "single", options: ["Yes", "No"], correct: 0, explanation: "It ends there." },
] as const;

/** The review's row of a question, found by its text. */
const reviewItem = (page: Page, prompt: string) => page.getByTestId("review-item").filter({ has: page.getByTestId("review-prompt").getByText(prompt, { exact: true }) });

test("the review lists each question's text and the chosen answer, each a way back; the result says the score against the pass mark", async ({ browser, baseURL }, testInfo) => {
  test.setTimeout(90_000);
  const trainerContext = await browser.newContext();
  const recipientContext = await browser.newContext({ viewport: { width: WIDTH, height: 740 } });
  try {
    const trainer = await trainerContext.newPage();
    await signIn(trainer, uniqueEmail("review-trainer"));
    const certification = await apiCall(trainer.request, baseURL!, "POST", "/api/v1/certifications", { name: "Acme Review", vendor: "Acme", domains: ["Basics"] });
    const domainId: number = certification.domains[0].id;
    for (const question of QUESTIONS) {
      await apiCall(trainer.request, baseURL!, "POST", `/api/v1/certifications/${certification.id}/domains/${domainId}/questions`, question);
    }
    const created = await apiCall(trainer.request, baseURL!, "POST", "/api/v1/tests", {
      certification_id: certification.id,
      domains: [domainId],
      questions: 3,
      pass_mark: 80,
      recipients: [{ email: uniqueEmail("review-recipient"), name: "Rae" }],
      send_email: false,
      record_integrity: false,
    });

    const page = await recipientContext.newPage();
    await page.goto(created.recipients[0].link);
    await page.getByRole("button", { name: "Start", exact: true }).click();

    // Answer by text, whatever the order: Venus (wrong), Two and Four (right); the long one is left.
    const group = page.getByRole("group");
    for (let n = 1; n <= 3; n++) {
      await expect(page.getByRole("heading", { name: `Question ${n} of 3` })).toBeVisible();
      const prompt = (await group.locator("legend").textContent())!;
      if (prompt === QUESTIONS[0].prompt) await group.getByLabel("Venus").check();
      if (prompt === QUESTIONS[1].prompt) for (const option of ["Two", "Four"]) await group.getByLabel(option).check();
      if (prompt !== LONG) await expect(page.getByText("✓ Saved")).toBeVisible();
      await page.getByRole("button", { name: n < 3 ? /^Next/ : /^Review/ }).first().click();
    }

    // The review: every question's text and the answer chosen, or Not answered.
    await expect(page.getByRole("heading", { name: "Review" })).toBeVisible();
    await expect(page.getByTestId("review-item")).toHaveCount(3);
    await expect(page.getByText("1 question still needs an answer.")).toBeVisible();
    await expect(reviewItem(page, QUESTIONS[0].prompt).getByTestId("review-answer")).toHaveText("Your answer: Venus");
    // Both options of the multiple-response answer, in the page's (shuffled) order.
    await expect.poll(async () => (await reviewItem(page, QUESTIONS[1].prompt).getByTestId("review-option").allTextContents()).sort()).toEqual(["Four", "Two"]);
    await expect(reviewItem(page, QUESTIONS[1].prompt).getByTestId("review-answer")).toContainText("Your answers:");
    const long = reviewItem(page, LONG);
    await expect(long.getByTestId("review-answer")).toHaveText("Not answered");
    await expect(long).toHaveAttribute("data-answered", "false");
    // The long text: cut to two lines on screen, whole in the button's name.
    const prompt = long.getByTestId("review-prompt");
    expect(await prompt.evaluate((el) => el.scrollHeight > el.clientHeight + 1), "the long text is cut on screen").toBe(true);
    await expect(long).toHaveAccessibleName(new RegExp(`^Question \\d ${LONG.replace(/[?.:,]/g, "\\$&")} Not answered$`));
    const widths = await page.evaluate(() => ({ document: document.documentElement.scrollWidth, viewport: window.innerWidth }));
    expect(widths.viewport).toBe(WIDTH);
    expect(widths.document, "no sideways scrolling on the review").toBeLessThanOrEqual(WIDTH);
    await expectNoSeriousViolations(page, "the review");
    await keepScreenshot(page, "review-with-answers", testInfo);

    // Its row leads back to the question, which is then answered; the review says so.
    await long.click();
    await expect(page.getByRole("heading", { name: /^Question \d of 3$/ })).toBeFocused();
    await expect(group.locator("legend")).toHaveText(LONG);
    await group.getByLabel("Yes").check();
    await expect(page.getByText("✓ Saved")).toBeVisible();
    await page.getByRole("button", { name: /^Review/ }).first().click();
    await expect(page.getByText("Every question is answered.")).toBeVisible();
    await expect(reviewItem(page, LONG).getByTestId("review-answer")).toHaveText("Your answer: Yes");
    await expect(reviewItem(page, LONG)).toHaveAttribute("data-answered", "true");

    // Submitted: 2 of 3 right, below the pass mark of 80, and the result says both.
    await page.getByTestId("submit-test").click();
    await page.getByRole("button", { name: "Yes, submit my answers" }).click();
    await expect(page.getByRole("heading", { name: "Your result" })).toBeVisible();
    await expect(page.getByTestId("result-percent")).toHaveText("66.7%");
    await expect(page.getByTestId("result-passed")).toHaveText("Not passed");
    await expect(page.getByTestId("result-pass-mark")).toHaveText("66.7% — the pass mark is 80%");
    // The same on the page read again from the server.
    await page.reload();
    await expect(page.getByTestId("result-pass-mark")).toHaveText("66.7% — the pass mark is 80%");
    await keepScreenshot(page, "result-with-pass-mark", testInfo);
  } finally {
    await trainerContext.close();
    await recipientContext.close();
  }
});
