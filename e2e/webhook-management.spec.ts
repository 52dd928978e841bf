import { expect, test } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { signIn, uniqueEmail } from "./helpers";
import { startReceiver, verifyCertification, type Received } from "./receiver";

/** As docs/webhooks.md tells a receiver: the secret's UTF-8 bytes as the raw key. */
function verifiesWith(secret: string, hit: Received): boolean {
  const headers = { "webhook-id": hit.headers["webhook-id"], "webhook-timestamp": hit.headers["webhook-timestamp"], "webhook-signature": hit.headers["webhook-signature"] } as Record<string, string>;
  try {
    new Webhook(new TextEncoder().encode(secret), { format: "raw" }).verify(hit.raw.toString("utf8"), headers);
    return true;
  } catch {
    return false;
  }
}

test("a trainer pauses a test-result endpoint, recovers what it missed once, and rotates its secret with both secrets verifying", async ({ page }) => {
  const receiver = await startReceiver();
  try {
    await signIn(page, uniqueEmail("webhook-management"));
    await page.goto("/webhooks");
    const testResults = page.getByRole("region", { name: "Test results (test.completed)" });
    await testResults.getByLabel("Address").fill(receiver.url);
    await testResults.getByRole("button", { name: "Add test-result endpoint" }).click();
    const secret = (await page.getByTestId("test-result-secret").textContent())!.trim();
    await page.getByRole("button", { name: "Done" }).click();
    const row = testResults.getByTestId("webhook-row").filter({ hasText: receiver.url });

    // Disabled: a test event is recorded as not sent, and nothing reaches the receiver.
    page.once("dialog", (dialog) => dialog.accept());
    await row.getByRole("button", { name: "Disable" }).click();
    await expect(row.getByRole("button", { name: "Enable" })).toBeVisible();
    await row.getByRole("button", { name: "Send test event" }).click();
    await expect(page.getByTestId("delivery-row").first()).toHaveAttribute("data-status", "not_sent");
    await expect(page.getByTestId("delivery-row").first()).toContainText("not sent (disabled)");
    expect(receiver.received).toHaveLength(0);

    // Enabled again, "Recover missed" sends it once; a second recovery finds nothing left to send.
    await row.getByRole("button", { name: "Enable" }).click();
    await expect(row.getByRole("button", { name: "Disable" })).toBeVisible();
    await row.getByRole("button", { name: "Recover missed" }).click();
    await row.getByRole("button", { name: "Recover", exact: true }).click();
    await expect(row.getByRole("status")).toHaveText("1 queued again.");
    await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBe(1);
    await row.getByRole("button", { name: "Recover", exact: true }).click();
    await expect(row.getByRole("status")).toHaveText("0 queued again.");
    const [recovered] = receiver.received;
    expect(verifyCertification(recovered.raw, recovered.headers["x-webhook-signature"] as string, secret)).toBe(true);
    expect(verifiesWith(secret, recovered)).toBe(true);
    expect(recovered.headers["webhook-id"]).toBe(recovered.headers["x-webhook-event-id"]);

    // Rotated: the new secret is shown once; for the overlap both secrets verify the Standard Webhooks signature.
    page.once("dialog", (dialog) => dialog.accept());
    await row.getByRole("button", { name: "Rotate secret" }).click();
    const rotated = (await page.getByTestId("rotated-secret").textContent())!.trim();
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    await page.getByRole("button", { name: "Done" }).click();
    await row.getByRole("button", { name: "Send test event" }).click();
    await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBe(2);
    const afterRotation = receiver.received[1];
    expect(verifiesWith(rotated, afterRotation)).toBe(true);
    expect(verifiesWith(secret, afterRotation)).toBe(true);
    expect(verifiesWith("whsec_not-the-secret-at-all", afterRotation)).toBe(false);
    expect(verifyCertification(afterRotation.raw, afterRotation.headers["x-webhook-signature"] as string, rotated)).toBe(true);
  } finally {
    await receiver.close();
  }
});
