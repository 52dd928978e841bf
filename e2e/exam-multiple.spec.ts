import { expect, test } from "@playwright/test";
import { apiCall, keepScreenshot, signIn, uniqueEmail } from "./helpers";

/**
 * A multiple-response question (issue 23) on the recipient's page, at 360 px as on a phone: the
 * start page says such questions are scored all or nothing; the card asks "Choose 2" with a
 * live count and saves only once two boxes are checked; after a reload both boxes are still
 * checked (from the server's answers); submitted, the result counts the question right and
 * the review marks the right set.
 */

test("a recipient answers a multiple-response question with two check boxes, reloads, and the result counts it right", async ({ browser, baseURL }, testInfo) => {
  test.setTimeout(90_000);
  const trainerContext = await browser.newContext();
  const recipientContext = await browser.newContext({ viewport: { width: 360, height: 740 } });
  try {
    const trainer = await trainerContext.newPage();
    await signIn(trainer, uniqueEmail("multiple-trainer"));

    // The trainer's own certification with one multiple-response question, through the editor's routes.
    const certification = await apiCall(trainer.request, baseURL!, "POST", "/api/v1/certifications", { name: "Acme Numbers", vendor: "Acme", domains: ["Numbers"] });
    const domainId: number = certification.domains[0].id;
    const question = await apiCall(trainer.request, baseURL!, "POST", `/api/v1/certifications/${certification.id}/domains/${domainId}/questions`, {
      prompt: "Which two numbers are even? (Choose two.)",
      type: "multiple",
      options: ["Two", "Three", "Four", "Five"],
      correct: [2, 0],
      explanation: "Two and four divide by two.",
    });
    expect(question).toMatchObject({ type: "multiple", correct: [0, 2] });

    // The editor lists it with its type and its right set.
    await trainer.goto(`/certifications/${certification.id}`);
    const row = trainer.getByTestId("question-row");
    await expect(row.getByTestId("question-type")).toHaveText("Multiple response: choose 2, scored all or nothing");
    await expect(row.getByText("Correct", { exact: true })).toHaveCount(2);

    const email = uniqueEmail("multiple-recipient");
    const created = await apiCall(trainer.request, baseURL!, "POST", "/api/v1/tests", {
      certification_id: certification.id,
      domains: [domainId],
      questions: 1,
      recipients: [{ email, name: "Mia" }],
      send_email: false,
      record_integrity: false,
    });
    const code: string = created.code;
    const link: string = created.recipients[0].link;

    // The start page says how multiple-response questions are scored.
    const recipient = await recipientContext.newPage();
    await recipient.goto(link);
    await expect(recipient.getByTestId("multiple-notice")).toContainText("scored all or nothing");
    await recipient.getByRole("button", { name: "Start", exact: true }).click();
    await expect(recipient.getByRole("heading", { name: "Question 1 of 1" })).toBeVisible();

    // Check boxes, "Choose 2" and a live count; one box is not an answer yet.
    const group = recipient.getByRole("group");
    await expect(group.getByRole("radio")).toHaveCount(0);
    await expect(group.getByRole("checkbox")).toHaveCount(4);
    await expect(recipient.getByTestId("choose-hint")).toContainText("Choose 2.");
    await expect(recipient.getByTestId("choose-count")).toHaveText("0 of 2 chosen.");
    await group.getByRole("checkbox", { name: "Two", exact: true }).check();
    await expect(recipient.getByTestId("choose-count")).toHaveText("1 of 2 chosen.");
    await expect(recipient.getByText("✓ Saved")).toHaveCount(0);
    await group.getByRole("checkbox", { name: "Four", exact: true }).check();
    await expect(recipient.getByTestId("choose-count")).toHaveText("2 of 2 chosen.");
    await expect(recipient.getByText("✓ Saved")).toBeVisible();
    // Two are chosen: the other boxes wait until one is unchecked.
    await expect(group.getByRole("checkbox", { name: "Three", exact: true })).toBeDisabled();
    expect(await recipient.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await keepScreenshot(recipient, "multiple-response-question", testInfo);

    // Reloaded: both boxes are still checked, from the server's answers.
    await recipient.reload();
    await recipient.getByRole("navigation", { name: "Questions" }).getByRole("button", { name: "Question 1, answered" }).click();
    const reloaded = recipient.getByRole("group");
    await expect(reloaded.getByRole("checkbox", { name: "Two", exact: true })).toBeChecked();
    await expect(reloaded.getByRole("checkbox", { name: "Four", exact: true })).toBeChecked();
    await expect(reloaded.getByRole("checkbox", { name: "Three", exact: true })).not.toBeChecked();
    await expect(reloaded.getByRole("checkbox", { name: "Five", exact: true })).not.toBeChecked();

    // Submitted: the exact set is right.
    await recipient.getByTestId("submit-test").click();
    await recipient.getByRole("button", { name: "Yes, submit my answers" }).click();
    await expect(recipient.getByRole("heading", { name: "Your result" })).toBeVisible();
    await expect(recipient.getByTestId("result-percent")).toHaveText("100%");
    await expect(recipient.getByText("1 of 1 questions correct")).toBeVisible();
    await expect(recipient.getByText("✓ Correct")).toBeVisible();
    await keepScreenshot(recipient, "multiple-response-result", testInfo);

    // The trainer's JSON agrees.
    const stored = await (await trainer.request.get(`/api/v1/tests/${code}`)).json();
    expect(stored.recipients[0].result).toMatchObject({ correct: 1, questions: 1, percent: 100 });
    const sheet = await (await trainer.request.get(`/api/v1/tests/${code}/recipients/${created.recipients[0].id}/answers`)).json();
    expect(sheet.answers[0]).toMatchObject({ type: "multiple", choose: 2, chosen: [0, 2], correct_option: [0, 2], correct: true });
  } finally {
    await trainerContext.close();
    await recipientContext.close();
  }
});
