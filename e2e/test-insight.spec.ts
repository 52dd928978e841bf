import { expect, test, type Page } from "@playwright/test";
import { apiCall, expectNoSeriousViolations, keepScreenshot, signIn, uniqueEmail } from "./helpers";

/**
 * The trainer's follow-up on the test page: a started recipient's progress ("2 of 4
 * answered"), a recipient's answer sheet (which follows the attempt live) and the question
 * analysis, whose highlighted rows and options are those the API flags.
 */

const CERTIFICATION = "Acme Network Basics";

type Sheet = { answers: { question_id: number; options: string[]; correct_option: number; chosen: number | null }[] };
type Analysis = { completed: number; questions: { question_id: number; weak: boolean; options: { flag: string | null }[] }[] };

/** Opens the personal link as the recipient would (pressing Start where the page has one). */
async function open(page: Page, link: string) {
  await page.goto(link);
  const start = page.getByRole("button", { name: "Start", exact: true });
  if (await start.isVisible()) await start.click();
  await expect(page.getByRole("heading", { name: /Question 1 of/ })).toBeVisible();
}

test("the trainer follows progress, reads an answer sheet and the question analysis", async ({ browser, baseURL }, testInfo) => {
  test.setTimeout(120_000);
  const trainerContext = await browser.newContext();
  const recipientContext = await browser.newContext();
  try {
    const trainer = await trainerContext.newPage();
    const recipient = await recipientContext.newPage();
    await signIn(trainer, uniqueEmail("insight-trainer"));

    // A certification of the trainer's own (the answer sheet shows the right options of those;
    // the shared catalog's are never shown to a trainer), two domains of two questions.
    const certification = await apiCall(trainer.request, baseURL!, "POST", "/api/v1/certifications", { name: CERTIFICATION, vendor: "Acme", domains: ["Networks", "Security"] });
    await apiCall(trainer.request, baseURL!, "POST", `/api/v1/certifications/${certification.id}/import?format=csv`, [
      "domain,question,option_a,option_b,option_c,option_d,correct,explanation",
      "Networks,Which port does HTTPS use?,80,443,21,25,B,TLS over TCP 443.",
      "Networks,Which layer routes packets?,Physical,Data link,Network,Session,C,Layer 3.",
      "Security,What does MFA add?,A second factor,A longer password,A firewall,A VPN,A,Something you have.",
      "Security,Which is a hash function?,AES,RSA,SHA-256,TLS,C,A digest.",
    ].join("\n"));
    // The test of 4 questions to four people, without e-mail, through the API with the session.
    const domains = (await (await trainer.request.get(`/api/v1/certifications/${certification.id}/domains`)).json()).data as { id: number }[];
    const people = ["all-but-one", "all-wrong", "first-only", "half-way"].map((label) => uniqueEmail(label));
    const created = await apiCall(trainer.request, baseURL!, "POST", "/api/v1/tests", {
      certification_id: certification.id,
      domains: domains.slice(0, 2).map((d) => d.id),
      questions: 4,
      recipients: people.map((email) => ({ email })),
      send_email: false,
      // The plan names options in each question's own order, as the answer sheet gives them.
      shuffle_options: false,
    });
    const code: string = created.code;
    const recipients = created.recipients as { id: number; email: string; link: string }[];
    const [allButOne, allWrong, firstOnly, halfWay] = recipients;

    // The trainer's sheet gives the questions and their right options; each recipient answers
    // as planned: right (r), or wrong by one (w1) or two (w2) places.
    const plan: Record<string, ("r" | "w1" | "w2")[]> = {
      [allButOne.email]: ["r", "r", "r", "w2"],
      [allWrong.email]: ["w1", "w1", "w1", "w1"],
      [firstOnly.email]: ["r", "w1", "w1", "w1"],
      [halfWay.email]: ["r", "r"],
    };
    for (const person of recipients) {
      await open(recipient, person.link);
      const token = person.link.split("/t/")[1];
      const sheet: Sheet = await (await trainer.request.get(`/api/v1/tests/${code}/recipients/${person.id}/answers`)).json();
      const canonical = [...sheet.answers].sort((a, b) => a.question_id - b.question_id);
      for (const [i, choice] of plan[person.email].entries()) {
        const q = canonical[i];
        const option = choice === "r" ? q.correct_option : (q.correct_option + (choice === "w1" ? 1 : 2)) % q.options.length;
        await apiCall(recipient.request, baseURL!, "PUT", `/api/t/${token}/answers`, { question_id: q.question_id, option });
      }
      if (person !== halfWay) await apiCall(recipient.request, baseURL!, "POST", `/api/t/${token}/submit`);
    }

    // The test page: the half-way recipient's progress, the others completed.
    await trainer.goto(`/tests/${code}`);
    const halfWayRow = trainer.locator(`[data-testid="recipient-row"][data-email="${halfWay.email}"]`);
    await expect(halfWayRow).toHaveAttribute("data-status", "started");
    await expect(halfWayRow.getByTestId("recipient-answered")).toHaveText(/2 of 4 answered/);
    for (const person of [allButOne, allWrong, firstOnly]) {
      await expect(trainer.locator(`[data-testid="recipient-row"][data-email="${person.email}"]`)).toHaveAttribute("data-status", "completed");
    }

    // The half-way recipient's sheet: two answers, two blank; it follows a third answer live.
    await halfWayRow.getByTestId("open-answer-sheet").click();
    const sheet = trainer.getByTestId("answer-sheet");
    await expect(sheet.getByRole("heading", { name: new RegExp(`Answer sheet · ${halfWay.email}`) })).toBeFocused();
    await expect(sheet.getByTestId("answer-sheet-item")).toHaveCount(4);
    await expect(sheet.getByTestId("answer-sheet-summary")).toHaveText("2 of 4 answered · 2 correct");
    await expect(sheet.locator('[data-outcome="unanswered"]')).toHaveCount(2);
    await keepScreenshot(trainer, "insight-answer-sheet", testInfo);
    await expectNoSeriousViolations(trainer, "the test page with an answer sheet and the analysis");
    const halfWaySheet: Sheet = await (await trainer.request.get(`/api/v1/tests/${code}/recipients/${halfWay.id}/answers`)).json();
    const blank = halfWaySheet.answers.find((a) => a.chosen === null)!;
    await apiCall(recipient.request, baseURL!, "PUT", `/api/t/${halfWay.link.split("/t/")[1]}/answers`, { question_id: blank.question_id, option: (blank.correct_option + 1) % blank.options.length });
    await expect(sheet.getByTestId("answer-sheet-summary")).toHaveText("3 of 4 answered · 2 correct", { timeout: 15_000 });
    await expect(sheet.locator('[data-outcome="wrong"]')).toHaveCount(1);
    await sheet.getByRole("button", { name: "Close the answer sheet" }).click();
    await expect(sheet).toHaveCount(0);

    // The analysis: three completed; the rows and options highlighted are those the API flags.
    const analysis: Analysis = await (await trainer.request.get(`/api/v1/tests/${code}/analysis`)).json();
    expect(analysis.completed).toBe(3);
    const table = trainer.getByTestId("question-analysis");
    await expect(table.getByTestId("analysis-summary")).toContainText("Based on 3 completed recipients (1 in progress, not counted yet)");
    await expect(table.getByTestId("analysis-row")).toHaveCount(4);
    const weak = analysis.questions.filter((q) => q.weak).length;
    expect(weak).toBeGreaterThan(0);
    await expect(table.locator('[data-testid="analysis-row"][data-weak="true"]')).toHaveCount(weak);
    const flagged = analysis.questions.flatMap((q) => q.options).filter((o) => o.flag !== null).length;
    await expect(table.locator('[data-testid="analysis-option"]:not([data-flag=""])')).toHaveCount(flagged);
    await expect(table.getByTestId("analysis-domain")).toHaveCount(2);
    await keepScreenshot(trainer, "insight-analysis", testInfo);
    await table.getByLabel("Weak questions only").check();
    await expect(table.getByTestId("analysis-row")).toHaveCount(weak);

    // On a 360 px phone the table is a stack of cards.
    await trainer.setViewportSize({ width: 360, height: 740 });
    await table.getByLabel("Weak questions only").uncheck();
    await expect(table.getByTestId("analysis-row")).toHaveCount(4);
    expect(await trainer.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await keepScreenshot(trainer, "insight-analysis-phone", testInfo);
  } finally {
    await trainerContext.close();
    await recipientContext.close();
  }
});
