import fs from "node:fs";
import { expect, test } from "@playwright/test";
import { api, keepScreenshot, mailboxLink, pollStatus, signIn, uniqueEmail } from "./helpers";

/**
 * Challenge files in the browser: the organiser uploads two files from the challenge's Files
 * panel (the chosen size shown), deletes one after confirming, downloads the other; a player
 * of the running competition sees it on the challenge card and downloads the same bytes.
 */

test("the organiser uploads and deletes challenge files; a player downloads one while the competition runs", async ({ page, browser }, testInfo) => {
  test.setTimeout(180_000);
  const admin = uniqueEmail("files-admin");
  const playerEmail = uniqueEmail("files-player");
  await signIn(page, admin);

  const now = Date.now();
  const ctf = await api(page, "POST", "/api/v1/ctfs", {
    title: `Files CTF ${now}`,
    starts_at: new Date(now - 3_600_000).toISOString(),
    ends_at: new Date(now + 86_400_000).toISOString(),
  });
  await api(page, "POST", `/api/v1/ctfs/${ctf.id}/deploy`);
  await pollStatus(page, `/api/v1/ctfs/${ctf.id}`, "deployed");
  const challenge = await api(page, "POST", `/api/v1/ctfs/${ctf.id}/challenges`, {
    title: "Carved",
    category: "forensics",
    points: 200,
    description: "Something is hidden in the capture.",
    flag: "CTF{carved-out}",
  });

  // Through the served app, an upload above the 1 MB limit of JSON bodies is accepted (the
  // file limit applies), and one above the file limit is a 413.
  const origin = new URL(page.url()).origin;
  const filesPath = `/api/v1/ctfs/${ctf.id}/challenges/${challenge.id}/files`;
  const big = await page.request.post(filesPath, { headers: { origin }, multipart: { file: { name: "big.bin", mimeType: "application/octet-stream", buffer: Buffer.alloc(3 * 1024 * 1024, 1) } } });
  expect(big.status(), await big.text()).toBe(201);
  const tooBig = await page.request.post(filesPath, { headers: { origin }, multipart: { file: { name: "huge.bin", mimeType: "application/octet-stream", buffer: Buffer.alloc(10 * 1024 * 1024 + 1, 1) } } });
  expect(tooBig.status()).toBe(413);
  expect((await tooBig.json()).error.code).toBe("payload_too_large");
  const bigFile = await big.json();
  const removed = await page.request.delete(`${filesPath}/${bigFile.id}`, { headers: { origin } });
  expect(removed.status()).toBe(200);

  // The Files panel of the challenge.
  await page.goto(`/competitions/${ctf.id}`);
  await page.getByRole("button", { name: "Files of Carved" }).click();
  const panel = page.locator('[data-testid="challenge-files"][data-challenge="Carved"]');
  await expect(panel.getByText("No files: players get the description only.")).toBeVisible();
  await expect(panel.getByText("(at most 10 MB)")).toBeVisible();

  const capture = Buffer.from(Array.from({ length: 2048 }, (_, i) => i % 251));
  await panel.getByLabel(/Add a file/).setInputFiles({ name: "capture.pcap", mimeType: "application/vnd.tcpdump.pcap", buffer: capture });
  await expect(panel.getByTestId("chosen-file")).toHaveText("capture.pcap · 2 KB");
  await panel.getByRole("button", { name: "Upload" }).click();
  await expect(panel.locator('[data-testid="challenge-file"][data-name="capture.pcap"]')).toContainText("2 KB");

  await panel.getByLabel(/Add a file/).setInputFiles({ name: "decoy.txt", mimeType: "text/plain", buffer: Buffer.from("nothing here") });
  await panel.getByRole("button", { name: "Upload" }).click();
  await expect(panel.getByTestId("challenge-file")).toHaveCount(2);

  // A name that is a path is refused in the browser, before anything is sent.
  await panel.getByLabel(/Add a file/).setInputFiles({ name: "..", mimeType: "text/plain", buffer: Buffer.from("x") });
  await expect(panel.getByRole("alert")).toContainText("only dots");
  await expect(panel.getByRole("button", { name: "Upload" })).toBeDisabled();
  await keepScreenshot(page, "challenge-files-panel", testInfo);

  // Delete asks first; dismissing keeps the file.
  page.once("dialog", (dialog) => dialog.dismiss());
  await panel.getByRole("button", { name: "Delete the file decoy.txt" }).click();
  await expect(panel.getByTestId("challenge-file")).toHaveCount(2);
  page.once("dialog", (dialog) => {
    expect(dialog.message()).toContain('Delete the file "decoy.txt"?');
    return dialog.accept();
  });
  await panel.getByRole("button", { name: "Delete the file decoy.txt" }).click();
  await expect(panel.getByTestId("challenge-file")).toHaveCount(1);

  // The organiser's download.
  const [organiserDownload] = await Promise.all([page.waitForEvent("download"), panel.getByRole("link", { name: "capture.pcap" }).click()]);
  expect(organiserDownload.suggestedFilename()).toBe("capture.pcap");
  expect(fs.readFileSync(await organiserDownload.path()).equals(capture)).toBe(true);

  // Published: files are fixed; a player downloads it from the challenge card.
  await api(page, "POST", `/api/v1/ctfs/${ctf.id}/challenges/${challenge.id}/publish`);
  await pollStatus(page, `/api/v1/ctfs/${ctf.id}/challenges/${challenge.id}`, "published");
  await page.reload();
  await page.getByRole("button", { name: "Files of Carved" }).click();
  await expect(panel.getByText("Unpublish the challenge to change its files.")).toBeVisible();
  await expect(panel.getByRole("button", { name: /Delete the file/ })).toHaveCount(0);

  await api(page, "POST", `/api/v1/ctfs/${ctf.id}/members`, { email: playerEmail });
  const link = await mailboxLink(page, playerEmail, { timeout: 20_000 });
  const player = await (await browser.newContext()).newPage();
  await player.goto(link);
  await player.getByRole("button", { name: "Accept invitation" }).click();
  await expect(player.getByTestId("joined-message")).toBeVisible();
  await player.goto(`/c/${ctf.id}`);
  const card = player.locator('[data-testid="public-challenge"][data-title="Carved"]');
  await expect(card.getByTestId("challenge-file")).toContainText("capture.pcap");
  await expect(card.getByTestId("challenge-file")).toContainText("2 KB");
  const [download] = await Promise.all([player.waitForEvent("download"), card.getByRole("link", { name: "capture.pcap" }).click()]);
  expect(download.suggestedFilename()).toBe("capture.pcap");
  expect(fs.readFileSync(await download.path()).equals(capture)).toBe(true);
  await keepScreenshot(player, "challenge-files-player", testInfo);

  // A visitor (no cookie) sees no file links.
  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto(`/c/${ctf.id}`);
  await expect(visitor.locator('[data-testid="public-challenge"][data-title="Carved"]')).toBeVisible();
  await expect(visitor.getByTestId("challenge-file")).toHaveCount(0);
});
