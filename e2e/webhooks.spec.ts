import { expect, test } from "@playwright/test";
import { keepScreenshot, signIn, uniqueEmail } from "./helpers";
import { startReceiver, verifyCertification } from "./receiver";

test("a trainer adds a test-result endpoint, sends a test event, sees it delivered and redelivers it", async ({ page }, testInfo) => {
  const receiver = await startReceiver({ statuses: [500] });
  try {
    await signIn(page, uniqueEmail("webhooks"));
    await page.getByRole("navigation", { name: "Trainer area" }).getByRole("link", { name: "Webhooks" }).click();
    await expect(page.getByRole("heading", { name: "Webhooks", level: 1 })).toBeVisible();
    const testResults = page.getByRole("region", { name: "Test results (test.completed)" });
    const competition = page.getByRole("region", { name: "Competition events" });

    // The competition form offers the nine competition events, never test.completed.
    await expect(competition.getByRole("checkbox")).toHaveCount(9);
    await expect(competition.getByRole("checkbox", { name: /test\.completed/ })).toHaveCount(0);

    // Checked with the contract's own schema before anything is sent: the error stands beside the address.
    const competitionAddress = competition.getByLabel("Address");
    await competitionAddress.fill("not a url");
    await competition.getByRole("button", { name: "Add endpoint" }).click();
    await expect(competitionAddress).toHaveAttribute("aria-invalid", "true");
    await expect(page.locator("#webhook-url-error")).toHaveText("Enter a full web address starting with https:// (or http://).");
    await expect(competitionAddress).toHaveAttribute("aria-describedby", "webhook-url-error");
    await competitionAddress.fill("");

    await testResults.getByLabel("Address").fill(receiver.url);
    await testResults.getByRole("button", { name: "Add test-result endpoint" }).click();
    const secret = (await page.getByTestId("test-result-secret").textContent())!.trim();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{20,}$/);
    await keepScreenshot(page, "webhooks-secret-once", testInfo);
    await page.getByRole("button", { name: "Done" }).click();
    await page.reload();
    await expect(page.getByText(secret)).toHaveCount(0);

    const row = testResults.getByTestId("webhook-row").filter({ hasText: receiver.url });
    await expect(row).toContainText("test.completed");
    await expect(competition.getByTestId("webhook-row").filter({ hasText: receiver.url })).toHaveCount(0);
    await row.getByRole("button", { name: "Send test event" }).click();

    // First attempt answered 500, the retry 200: the log shows both attempts, delivered.
    const delivery = page.getByTestId("delivery-row").first();
    await expect(delivery).toHaveAttribute("data-status", "delivered", { timeout: 20_000 });
    await expect(delivery).toContainText("#1: 500");
    await expect(delivery).toContainText("#2: 200");
    await keepScreenshot(page, "webhooks-delivery-log", testInfo);

    expect(receiver.received).toHaveLength(2);
    const [first, second] = receiver.received;
    for (const hit of receiver.received) {
      expect(hit.headers["x-webhook-event"]).toBe("test.completed");
      expect(verifyCertification(hit.raw, hit.headers["x-webhook-signature"] as string, secret)).toBe(true);
      const body = JSON.parse(hit.raw.toString("utf8"));
      expect(body.payload.event_id).toBe(hit.headers["x-webhook-event-id"]);
      expect(body.sent_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?[+-]\d\d:\d\d$/);
    }
    expect(second.headers["x-webhook-event-id"]).toBe(first.headers["x-webhook-event-id"]);

    await delivery.getByRole("button", { name: "Redeliver" }).click();
    await expect(page.getByTestId("delivery-row")).toHaveCount(2);
    await expect(page.getByTestId("delivery-row").first()).toHaveAttribute("data-status", "delivered", { timeout: 20_000 });
    expect(receiver.received).toHaveLength(3);
    expect(receiver.received[2].headers["x-webhook-event-id"]).toBe(first.headers["x-webhook-event-id"]);

    page.once("dialog", (dialog) => dialog.accept());
    await row.getByRole("button", { name: "Delete" }).click();
    await expect(page.getByTestId("webhook-row").filter({ hasText: receiver.url })).toHaveCount(0);
  } finally {
    await receiver.close();
  }
});
