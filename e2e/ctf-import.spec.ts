import { expect, test } from "@playwright/test";
import { ctfdExportZip } from "../tests/ctf/challenges/ctfd-fixture";
import { api, keepScreenshot, signIn, uniqueEmail } from "./helpers";

/**
 * An organiser brings a CTFd event over: in the competition's dashboard they choose the zip of
 * CTFd's export (built from CTFd's documented layout, tests/ctf/challenges/ctfd-fixture.ts),
 * check it (nothing written yet: the report lists what would be imported, the challenge
 * without a flag as skipped, and what does not carry over), import it, and the challenges are
 * in the list as drafts with their hints and their files.
 */
test("a CTFd export imports from the dashboard as draft challenges with hints and files, after a check that reports what does not carry over", async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  await signIn(page, uniqueEmail("ctfd-import"));
  const now = Date.now();
  const ctf = await api(page, "POST", "/api/v1/ctfs", {
    title: `Imported CTF ${now}`,
    starts_at: new Date(now + 86_400_000).toISOString(),
    ends_at: new Date(now + 2 * 86_400_000).toISOString(),
  });
  await page.goto(`/competitions/${ctf.id}`);

  const form = page.getByRole("region", { name: "Import from CTFd" });
  await form.getByLabel("CTFd export (.zip)").setInputFiles({ name: "ctfd-export.zip", mimeType: "application/zip", buffer: Buffer.from(ctfdExportZip()) });
  await form.getByRole("button", { name: "Check archive" }).click();
  const report = form.getByTestId("ctfd-report");
  await expect(report).toContainText("4 challenges can be imported; 1 skipped. Nothing has been written yet.");
  await expect(form.getByTestId("ctfd-skipped")).toContainText("Survey");
  await expect(form.getByTestId("ctfd-notes")).toContainText("linear decay is not carried over");
  await expect(page.getByTestId("challenge-row")).toHaveCount(0);

  await form.getByRole("button", { name: "Import 4 challenges" }).click();
  await expect(form.getByTestId("ctfd-imported")).toContainText("Imported 4 challenges as drafts");
  await expect(report).toContainText("Warm-up (forensics): 2 hints, 2 files");
  await expect(page.getByTestId("challenge-row")).toHaveCount(4);
  const warmUp = page.locator('[data-testid="challenge-row"][data-title="Warm-up"]');
  await expect(warmUp).toHaveAttribute("data-status", "draft");
  await expect(warmUp).toContainText("2 hints");
  await expect(page.locator('[data-testid="challenge-row"][data-title="Falling value"]')).toContainText("500");

  await warmUp.getByRole("button", { name: "Files of Warm-up" }).click();
  const files = page.locator('[data-testid="challenge-files"][data-challenge="Warm-up"]');
  await expect(files.getByTestId("challenge-file")).toHaveCount(2);
  await expect(files.locator('[data-testid="challenge-file"][data-name="capture.pcap"]')).toBeVisible();
  await expect(files.locator('[data-testid="challenge-file"][data-name="notes.txt"]')).toBeVisible();
  await keepScreenshot(page, "ctfd-import", testInfo);

  // A broken archive is refused with the entry named, and nothing more is imported.
  await form.getByLabel("CTFd export (.zip)").setInputFiles({ name: "broken.zip", mimeType: "application/zip", buffer: Buffer.from("not a zip") });
  await form.getByRole("button", { name: "Check archive" }).click();
  await expect(form.getByTestId("ctfd-error")).toContainText("not a zip archive");
  await expect(page.getByTestId("challenge-row")).toHaveCount(4);
});
