import { expect, test } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { apiCall, signIn, uniqueEmail } from "./helpers";
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

test("the delivery log names the test and the recipient of a result, and marks a test event as one", async ({ browser, page, baseURL }) => {
  const receiver = await startReceiver();
  const recipientContext = await browser.newContext();
  try {
    await signIn(page, uniqueEmail("webhook-subject"));
    await page.goto("/webhooks");
    const testResults = page.getByRole("region", { name: "Test results (test.completed)" });
    await testResults.getByLabel("Address").fill(receiver.url);
    await testResults.getByRole("button", { name: "Add test-result endpoint" }).click();
    await page.getByRole("button", { name: "Done" }).click();
    const row = testResults.getByTestId("webhook-row").filter({ hasText: receiver.url });

    // A real result: a test of two questions that its one recipient completes (through the recipient's API, as the page does).
    const origin = new URL(baseURL!).origin;
    const [certification] = (await apiCall(page.request, origin, "GET", "/api/v1/certifications?search=Cloud%20Practitioner")).data;
    const domains = (await apiCall(page.request, origin, "GET", `/api/v1/certifications/${certification.id}/domains`)).data.map((domain: { id: number }) => domain.id);
    const email = uniqueEmail("webhook-subject-recipient");
    const created = await apiCall(page.request, origin, "POST", "/api/v1/tests", {
      certification_id: certification.id,
      domains: domains.slice(0, 2),
      questions: 2,
      recipients: [{ email, name: "Ada Lovelace" }],
      send_email: false,
    });
    const [recipient] = created.recipients as { id: number; link: string }[];
    const token = recipient.link.split("/t/")[1];
    await apiCall(recipientContext.request, origin, "POST", `/api/t/${token}/start`);
    const sheet: { answers: { question_id: number; type: "single" | "multiple"; choose: number }[] } = await apiCall(
      page.request,
      origin,
      "GET",
      `/api/v1/tests/${created.code}/recipients/${recipient.id}/answers`,
    );
    for (const question of sheet.answers) {
      const answer = question.type === "multiple" ? { options: Array.from({ length: question.choose }, (_, i) => i) } : { option: 0 };
      await apiCall(recipientContext.request, origin, "PUT", `/api/t/${token}/answers`, { question_id: question.question_id, ...answer });
    }
    await apiCall(recipientContext.request, origin, "POST", `/api/t/${token}/submit`);
    await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBe(1);

    // And a sample from "Send test event": the log shows both, newest first.
    await row.getByRole("button", { name: "Send test event" }).click();
    const deliveries = page.getByTestId("delivery-row");
    await expect(deliveries).toHaveCount(2);
    const [sample, real] = [deliveries.nth(0), deliveries.nth(1)];
    await expect(real.getByTestId("delivery-about")).toHaveText(`Test ${created.code} · Ada Lovelace <${email}>`);
    await expect(real.getByTestId("delivery-test-event")).toHaveCount(0);
    await expect(real.getByRole("link", { name: "Open the test" })).toHaveAttribute("href", `/tests/${created.code}`);
    await expect(sample.getByTestId("delivery-test-event")).toHaveText("Test event");
    await expect(sample.getByTestId("delivery-about")).toHaveText("Sample data from “Send test event”, not a real result");
    await expect(sample.getByRole("link", { name: "Open the test" })).toHaveCount(0);

    // The API's view says the same, for an integrator.
    const endpoint = (await apiCall(page.request, origin, "GET", "/api/app/test-result-webhooks?per_page=100")).data.find((hook: { url: string }) => hook.url === receiver.url);
    const log = (await apiCall(page.request, origin, "GET", `/api/app/test-result-webhooks/${endpoint.id}/deliveries`)).data;
    expect(log.map((delivery: { kind: string }) => delivery.kind)).toEqual(["test_event", "event"]);
    expect(log[1].about).toMatchObject({ test: created.code, recipient_email: email, recipient_name: "Ada Lovelace", sample: false });
  } finally {
    await recipientContext.close();
    await receiver.close();
  }
});
