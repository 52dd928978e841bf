import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { answerShown, keepScreenshot, mailboxLink, signIn, signInOnThisPage, uniqueEmail } from "./helpers";

/**
 * Classes end to end: a trainer creates a class with one student address; the student joins
 * from the invitation (magic-link sign-in on the way); the trainer sends a test to the class;
 * the student takes it from the student area; the class progress shows it per domain.
 * Stays within the free plan (1 class, 2 students).
 */

const CERTIFICATION = "AWS Certified Cloud Practitioner";
const DOMAINS = ["Cloud Concepts", "Billing, Pricing, and Support"];

type DomainResult = { id: number; name: string; percent: number; correct: number; questions: number };
type TestJson = { recipients: { email: string; status: string; result?: { percent: number; domains: DomainResult[] } | null }[] };

const percentText = (value: number) => `${Math.round(value * 10) / 10}%`;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Answers every question of the test on screen (option index = question number mod 4), then submits. */
async function takeWholeTest(page: Page, questions: number) {
  const progress = page.getByRole("progressbar", { name: "Progress" });
  for (let n = 1; n <= questions; n++) {
    await expect(page.getByRole("heading", { name: `Question ${n} of ${questions}` })).toBeVisible();
    await answerShown(page, n % 4);
    await expect(progress).toHaveAttribute("aria-valuenow", String(n));
    await page.getByRole("button", { name: n < questions ? /^Next/ : /^Review/ }).click();
  }
  await expect(page.getByRole("heading", { name: "Review" })).toBeVisible();
  await page.getByTestId("submit-test").click();
  await page.getByRole("button", { name: "Yes, submit my answers" }).click();
  await expect(page.getByRole("heading", { name: "Your result" })).toBeVisible();
}

test("a student joins a class from the invitation, takes the test sent to the class, and the trainer sees the progress", async ({ browser }, testInfo) => {
  test.setTimeout(120_000);
  const trainerContext = await browser.newContext();
  const studentContext = await browser.newContext();
  try {
    const trainer = await trainerContext.newPage();
    const student = await studentContext.newPage();
    const studentEmail = uniqueEmail("student");
    const className = `Cloud cohort ${Date.now().toString(36)}`;

    // 1. The trainer creates a class with one student address.
    await signIn(trainer, uniqueEmail("class-trainer"));
    await trainer.getByRole("navigation", { name: "Trainer area" }).getByRole("link", { name: "Classes" }).click();
    await expect(trainer.getByRole("heading", { name: "Classes", level: 1 })).toBeVisible();
    await expect(trainer.getByTestId("usage-classes")).toHaveText("0 of 1");
    await trainer.getByLabel("Name", { exact: true }).fill(className);
    const certificationSelect = trainer.getByLabel("Certification");
    await expect(certificationSelect).toBeEnabled();
    await certificationSelect.selectOption({ label: `Amazon Web Services · ${CERTIFICATION} (CLF-C02)` });
    await trainer.getByRole("textbox", { name: /Students.*e-mail addresses/ }).fill(studentEmail);
    await expect(trainer.getByText("1 address.")).toBeVisible();
    await trainer.getByRole("button", { name: "Create class" }).click();
    await expect(trainer.getByText(`Class “${className}” created; 1 invitation sent.`)).toBeVisible();
    await trainer.getByRole("link", { name: "Open it" }).click();
    await expect(trainer.getByRole("heading", { name: className, level: 1 })).toBeVisible();
    const classUrl = trainer.url();
    expect(classUrl).toMatch(/\/classes\/\d+$/);
    const classId = classUrl.split("/").pop()!;
    await expect(trainer.locator(`[data-testid="invitation-row"][data-email="${studentEmail}"]`)).toBeVisible();
    // At 1280 px the address and "Re-send" each stay on one line (a narrower table breaks an address only at @ or a dot).
    const invitationRow = trainer.locator(`[data-testid="invitation-row"][data-email="${studentEmail}"]`);
    const lineHeight = async (locator: import("@playwright/test").Locator) =>
      locator.evaluate((element) => element.getBoundingClientRect().height / parseFloat(getComputedStyle(element).lineHeight));
    expect(await lineHeight(invitationRow.getByRole("rowheader").locator("span").first())).toBeLessThan(1.5);
    expect((await invitationRow.getByRole("button", { name: /Re-send/ }).boundingBox())!.height).toBeLessThan(48);

    // Inviting the same address again: the server's field error stands beside the addresses (in what the textarea's aria-describedby names), and in the summary.
    const inviteMore = trainer.getByRole("textbox", { name: /Students.*e-mail addresses/ });
    await inviteMore.fill(studentEmail);
    await trainer.getByRole("button", { name: "Invite", exact: true }).click();
    await expect(inviteMore).toHaveAttribute("aria-invalid", "true");
    const describedBy = (await inviteMore.getAttribute("aria-describedby"))!.split(" ");
    await expect(trainer.locator(describedBy.map((id) => `#${id}`).join(", ")).filter({ hasText: `${studentEmail} is already invited to this class` })).toHaveCount(1);
    await expect(trainer.getByTestId("field-errors")).toContainText(`E-mail 1 (${studentEmail})`);

    // 2. The student opens the invitation, signs in with the invited address, joins.
    const invitation = await mailboxLink(student, studentEmail, { subject: `Join the class ${className}` });
    expect(invitation).toMatch(/\/join\/[^/]+$/);
    await student.goto(invitation);
    await expect(student.getByRole("heading", { name: className })).toBeVisible();
    await expect(student.getByRole("definition").filter({ hasText: studentEmail })).toBeVisible(); // "Invited"
    await student.getByRole("link", { name: "Sign in to join" }).click();
    // The sign-in page says which class is being joined and offers the invited address.
    await expect(student.getByRole("heading", { name: `Sign in to join ${className}`, level: 1 })).toBeVisible();
    await expect(student.getByLabel("E-mail address")).toHaveValue(studentEmail);
    await signInOnThisPage(student, studentEmail);
    await expect(student).toHaveURL(new URL(invitation).pathname);
    await expect(student.getByText(`Signed in as ${studentEmail}.`)).toBeVisible();
    await keepScreenshot(student, "class-join", testInfo);
    await student.getByRole("button", { name: "Join the class" }).click();
    await expect(student).toHaveURL(/\/student$/);
    await expect(student.getByRole("heading", { name: "Student area", level: 1 })).toBeVisible();
    await expect(student.getByTestId("student-class")).toContainText(className);
    await expect(student.getByText(`No test has been sent to ${studentEmail} yet.`)).toBeVisible();

    // 3. The trainer sees the student joined and sends a test to the class.
    await trainer.reload();
    await expect(trainer.locator(`[data-testid="student-row"][data-email="${studentEmail}"]`)).toBeVisible();
    await expect(trainer.locator(`[data-testid="invitation-row"][data-email="${studentEmail}"]`)).toHaveCount(0);
    await trainer.getByTestId("send-test-to-class").click();
    await expect(trainer).toHaveURL(new RegExp(`/tests/new\\?class=${classId}$`));
    await expect(trainer.getByRole("radio", { name: "Class" })).toBeChecked();
    await expect(trainer.getByLabel("Which class")).toHaveValue(classId);
    await expect(trainer.locator("#test-class-hint")).toHaveText("Sent to its 1 joined student.");
    // The class's certification is chosen for it, with its domains ticked.
    await expect(trainer.getByRole("radio", { name: new RegExp(CERTIFICATION) })).toBeChecked();
    await expect(trainer.getByTestId("class-certification-note")).toHaveText(`The certification of the class ${className}.`);
    await expect(trainer.getByRole("checkbox", { name: new RegExp(`^${escape(DOMAINS[0])} \\(`) })).toBeChecked();
    await trainer.getByRole("button", { name: "Untick all" }).click();
    for (const domain of DOMAINS) await trainer.getByRole("checkbox", { name: new RegExp(`^${escape(domain)} \\(`) }).check();
    await trainer.getByLabel("Total questions").fill("4");
    for (const domain of DOMAINS) await expect(trainer.getByTestId("question-split")).toContainText(`${domain}: 2`);
    await keepScreenshot(trainer, "class-new-test-for-class", testInfo);
    await trainer.getByRole("button", { name: "Create test" }).click();
    await expect(trainer).toHaveURL(/\/tests\/[^/?]+$/);
    const code = (await trainer.getByTestId("test-code").textContent())!.trim();
    await expect(trainer.getByRole("link", { name: "class", exact: true })).toHaveAttribute("href", `/classes/${classId}`);
    const row = trainer.locator(`[data-testid="recipient-row"][data-email="${studentEmail}"]`);
    await expect(row).toHaveAttribute("data-status", "sent");
    await expect(trainer.getByTestId("recipient-row")).toHaveCount(1);

    // 4. The student finds it in the student area and takes it from there.
    await student.goto("/student");
    const card = student.locator(`[data-testid="student-test"][data-code="${code}"]`);
    await expect(card).toHaveAttribute("data-status", "sent");
    await expect(card).toContainText(CERTIFICATION);
    await keepScreenshot(student, "class-student-area", testInfo);
    await card.getByRole("link", { name: "Start the test" }).click();
    await expect(student).toHaveURL(/\/t\/[^/]+$/);
    await student.getByRole("button", { name: "Start", exact: true }).click();
    await takeWholeTest(student, 4);
    const percent = (await student.getByTestId("result-percent").textContent())!.trim();
    await expect(student.getByTestId("domain-result")).toHaveCount(2);
    // The result is no dead end for a signed-in student.
    await student.reload();
    await expect(student.getByRole("link", { name: /Back to your classes/ })).toHaveAttribute("href", "/student");

    await student.goto("/student");
    await expect(card).toHaveAttribute("data-status", "completed");
    await expect(card).toContainText(percent);
    await expect(card.getByTestId("domain-result")).toHaveCount(2);
    await expect(card.getByRole("link", { name: "See your answers" })).toBeVisible();

    // 5. The trainer's class progress: the completed test and one cell per tested domain.
    const stored = (await (await trainer.request.get(`/api/v1/tests/${code}`)).json()) as TestJson;
    const result = stored.recipients[0].result!;
    expect(`${result.percent}%`).toBe(percent);
    await expect(row).toHaveAttribute("data-status", "completed", { timeout: 15_000 });

    await trainer.goto(`/classes/${classId}`);
    const progressRow = trainer.locator(`[data-testid="progress-row"][data-email="${studentEmail}"]`);
    await expect(progressRow.getByTestId("tests-sent")).toHaveText("1");
    await expect(progressRow.getByTestId("tests-started")).toHaveText("1");
    await expect(progressRow.getByTestId("tests-completed")).toHaveText("1", { timeout: 15_000 });
    // With the progress tables shown, every landmark has a name of its own.
    const { violations } = await new AxeBuilder({ page: trainer }).withRules(["landmark-unique"]).analyze();
    expect(violations.flatMap((violation) => violation.nodes.map((node) => node.target.join(" ")))).toEqual([]);
    await expect(progressRow.getByTestId("average")).toHaveText(percentText(result.percent));
    const cells = trainer.locator(`[data-testid="progress-cell"][data-email="${studentEmail}"]`);
    await expect(cells).toHaveCount(4); // every domain of the certification is a column
    for (const domain of result.domains) {
      const cell = trainer.locator(`[data-testid="progress-cell"][data-email="${studentEmail}"][data-domain-id="${domain.id}"]`);
      await expect(cell).toHaveAttribute("data-domain", domain.name);
      await expect(cell).toHaveText(percentText(domain.percent));
      await expect(cell).not.toHaveAttribute("data-level", "none");
    }
    const untested = cells.filter({ hasText: "No result yet" });
    await expect(untested).toHaveCount(2);
    for (const cell of await untested.all()) await expect(cell).toHaveAttribute("data-level", "none");
    await keepScreenshot(trainer, "class-progress", testInfo);
  } finally {
    await trainerContext.close();
    await studentContext.close();
  }
});
