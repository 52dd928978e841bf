import { expect, test } from "@playwright/test";
import { expectNoSeriousViolations, keepScreenshot, mailboxLink, signIn, signInOnThisPage, uniqueEmail } from "./helpers";

/**
 * The trainer's workspace and a class that holds together, in the browser: the Settings page
 * (rename the workspace, plan usage, what a higher plan allows), a plan-limit message that
 * links to it, the preview of a catalog certification (no answers), and a class where the
 * trainer removes a joined student and cancels a pending invitation, each after confirming.
 * Stays within the free plan (1 class, 2 students).
 */

const CERTIFICATION = "AWS Certified Cloud Practitioner";

test("a trainer names the workspace, previews a certification, and removes a student and an invitation", async ({ browser }, testInfo) => {
  test.setTimeout(150_000);
  const trainerContext = await browser.newContext();
  const studentContext = await browser.newContext();
  try {
    const trainer = await trainerContext.newPage();
    const student = await studentContext.newPage();
    const workspaceName = `Acme Academy ${Date.now().toString(36)}`;

    // 1. Settings: the plan and its usage, then a new name for every e-mail (the header follows).
    await signIn(trainer, uniqueEmail("ws-trainer"));
    await trainer.getByRole("navigation", { name: "Trainer area" }).getByRole("link", { name: "Settings" }).click();
    await expect(trainer.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();
    await expect(trainer.getByTestId("current-plan")).toHaveText("free");
    await expect(trainer.getByTestId("usage-classes")).toHaveText("0 of 1");
    await expect(trainer.locator('[data-testid="plan-row"][data-plan="pro"]')).toContainText("1,000");
    await expect(trainer.getByText(/A higher plan allows 1,000 seats, 100 classes and 1,000 students \(pro\)/)).toBeVisible();
    await trainer.getByLabel("Workspace name").fill(workspaceName);
    await trainer.getByRole("button", { name: "Save name" }).click();
    await expect(trainer.getByText(`Saved: e-mails now say “${workspaceName}”.`)).toBeVisible();
    await expect(trainer.getByTestId("workspace-name")).toContainText(workspaceName);
    await expectNoSeriousViolations(trainer, "the settings page");
    await keepScreenshot(trainer, "workspace-settings", testInfo);

    // 2. A catalog certification's preview: domains, counts, sample questions, and no answer.
    await trainer.getByRole("navigation", { name: "Trainer area" }).getByRole("link", { name: "Certifications" }).click();
    await trainer.getByRole("link", { name: `Preview ${CERTIFICATION}` }).click();
    await expect(trainer.getByRole("heading", { name: CERTIFICATION, level: 1 })).toBeVisible();
    await expect(trainer.getByTestId("preview-domain")).toHaveCount(4);
    await expect(trainer.getByTestId("sample-question")).toHaveCount(12);
    await expect(trainer.getByTestId("preview-domains")).not.toContainText(/correct|explanation/i);
    await expectNoSeriousViolations(trainer, "the certification preview");
    await keepScreenshot(trainer, "certification-preview", testInfo);

    // 3. A class with two students given with their names; the invitation comes from the renamed workspace.
    const [ann, bob] = [uniqueEmail("ann"), uniqueEmail("bob")];
    const className = `Removal cohort ${Date.now().toString(36)}`;
    await trainer.getByRole("navigation", { name: "Trainer area" }).getByRole("link", { name: "Classes" }).click();
    await trainer.getByLabel("Name", { exact: true }).fill(className);
    await trainer.getByLabel("Certification").selectOption({ label: `Amazon Web Services · ${CERTIFICATION} (CLF-C02)` });
    await trainer.getByRole("textbox", { name: /Students.*e-mail addresses/ }).fill(`Ann Example <${ann}>\n${bob}, Bob Example`);
    await expect(trainer.getByText("2 addresses.")).toBeVisible();
    await trainer.getByRole("button", { name: "Create class" }).click();
    await trainer.getByRole("link", { name: "Open it" }).click();
    await expect(trainer.getByRole("heading", { name: className, level: 1 })).toBeVisible();
    await expect(trainer.locator(`[data-testid="invitation-row"][data-email="${bob}"]`)).toContainText("Bob Example");

    // 4. A second class is beyond the free plan: the message links to the plans.
    await trainer.getByRole("navigation", { name: "Trainer area" }).getByRole("link", { name: "Classes" }).click();
    await trainer.getByLabel("Name", { exact: true }).fill("One too many");
    await trainer.getByLabel("Certification").selectOption({ label: `Amazon Web Services · ${CERTIFICATION} (CLF-C02)` });
    await trainer.getByRole("button", { name: "Create class" }).click();
    await expect(trainer.getByTestId("plan-error")).toContainText("The free plan allows 1 class.");
    await trainer.getByTestId("plan-settings-link").click();
    await expect(trainer.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();
    await expect(trainer.getByTestId("usage-students")).toHaveText("2 of 2");
    await trainer.goBack();

    // 5. Ann joins (the e-mail names the workspace and greets her by name).
    const invitation = await mailboxLink(student, ann, { subject: `Join the class ${className}` });
    await student.goto(invitation);
    await student.getByRole("link", { name: "Sign in to join" }).click();
    await signInOnThisPage(student, ann);
    await student.getByRole("button", { name: "Join the class" }).click();
    await expect(student.getByTestId("student-class")).toContainText(className);
    await expect(student.getByTestId("student-class")).toContainText(workspaceName);

    // 6. The trainer removes Ann and cancels Bob's invitation, confirming each; both places are free again.
    await trainer.goto("/classes");
    await trainer.getByRole("link", { name: className }).click();
    const annRow = trainer.locator(`[data-testid="student-row"][data-email="${ann}"]`);
    await expect(annRow).toContainText("Ann Example");
    trainer.once("dialog", (dialog) => {
      expect(dialog.type()).toBe("confirm");
      expect(dialog.message()).toContain(`Remove ${ann} from ${className}?`);
      void dialog.accept();
    });
    await annRow.getByRole("button", { name: `Remove ${ann} from the class` }).click();
    await expect(trainer.getByText(`${ann} was removed from the class. Results of tests already sent are kept.`)).toBeVisible();
    await expect(annRow).toHaveCount(0);

    // Dismissing the confirmation changes nothing.
    const bobRow = trainer.locator(`[data-testid="invitation-row"][data-email="${bob}"]`);
    trainer.once("dialog", (dialog) => void dialog.dismiss());
    await bobRow.getByRole("button", { name: `Cancel the invitation to ${bob}` }).click();
    await expect(bobRow).toHaveCount(1);
    trainer.once("dialog", (dialog) => void dialog.accept());
    await bobRow.getByRole("button", { name: `Cancel the invitation to ${bob}` }).click();
    await expect(trainer.getByText(`The invitation to ${bob} was cancelled; its link no longer works.`)).toBeVisible();
    await expect(bobRow).toHaveCount(0);
    await expectNoSeriousViolations(trainer, "the class page after removals");
    await keepScreenshot(trainer, "class-after-removals", testInfo);

    await trainer.goto("/settings");
    await expect(trainer.getByTestId("usage-students")).toHaveText("0 of 2");
    await student.goto("/student");
    await expect(student.getByTestId("student-class")).toHaveCount(0);
  } finally {
    await trainerContext.close();
    await studentContext.close();
  }
});
