import { expect, test } from "@playwright/test";
import { expectNoSeriousViolations, signIn, uniqueEmail } from "./helpers";

/**
 * A question bank from Moodle (issue 25): the trainer picks GIFT, checks the file (a dry run:
 * what would go where, the essay skipped with its line), imports it, and downloads the
 * certification as Moodle XML.
 */

const gift = [
  "// A Moodle export",
  "$CATEGORY: $course$/top/Networking",
  "",
  "::Port::Which port does HTTPS use? {=443 ~80 ~21 #Plain HTTP.}",
  "",
  "::Evens::Which two are even? {~%50%2 ~%50%4 ~%-100%3}",
  "",
  "$CATEGORY: $course$/top/Security",
  "",
  "::MFA::MFA adds a second factor.{T}",
  "",
  "::Essay::Explain TLS in your own words. {}",
  "",
].join("\n");

test("a GIFT bank is checked, imported and exported as Moodle XML from the certification's editor", async ({ page }) => {
  await signIn(page, uniqueEmail("bank-author"));
  await page.goto("/certifications/new");
  await page.getByLabel("Name", { exact: true }).fill("Imported bank");
  await page.getByLabel("Vendor").fill("Acme");
  await page.getByLabel("Domains").fill("Networking");
  await page.getByRole("button", { name: "Create certification" }).click();
  await expect(page.getByRole("heading", { name: "Imported bank", level: 1 })).toBeVisible();

  await page.getByLabel("Format").selectOption("gift");
  await page.getByLabel("Or paste the file's text").fill(gift);
  await page.getByTestId("bank-check").click();
  const preview = page.getByTestId("bank-preview");
  await expect(preview).toContainText("3 questions can be imported; 1 skipped. Nothing has been written yet.");
  await expect(preview.getByTestId("bank-preview-domain")).toHaveText(["Networking: 2 questions", "Security (new domain): 1 question"]);
  await expect(preview.getByTestId("bank-skipped")).toContainText(/Line 12 \(Essay\): .*[Ee]ssay/);
  await expect(page.getByRole("heading", { name: "Questions (0)" })).toBeVisible();
  await expectNoSeriousViolations(page, "the import's preview");

  await page.getByTestId("bank-import").click();
  await expect(page.getByTestId("bank-imported")).toContainText("Imported 3 questions; new domains: Security.");
  await expect(page.getByRole("heading", { name: "Questions (3)" })).toBeVisible();
  await expect(page.getByTestId("question-row").filter({ hasText: "Which two are even?" }).getByTestId("question-type")).toContainText("choose 2");

  const download = page.waitForEvent("download");
  await page.getByTestId("bank-export-moodle_xml").click();
  const file = await download;
  expect(file.suggestedFilename()).toBe("imported-bank.xml");
  const xml = await (await file.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString("utf8"));
  expect(xml).toContain("<quiz>");
  expect(xml).toContain("$course$/top/Security");
  expect(xml.match(/<question type="multichoice">/g)).toHaveLength(3);
});
