import { expect, test, type Page } from "@playwright/test";
import { apiCall, keepScreenshot, signIn, uniqueEmail } from "./helpers";

/**
 * The integrity record (a test's `record_integrity`, on by default): the start page tells the
 * recipient what is recorded; she starts, switches to another tab and comes back, copies; the
 * trainer's answer sheet (API and dashboard) shows the hidden page and the copy, and the
 * results list flags the recipient. The recipient's side runs at 360 px, as on a phone.
 */

type Integrity = {
  start: { address: string | null; browser: string | null } | null;
  browsers: number;
  hidden: { count: number; seconds: number };
  copy_attempts: number;
  flagged: boolean;
} | null;

/**
 * The page is hidden for about 1.5 s: another page of the same browser brought to the front,
 * as a tab switch. Where the browser keeps every page visible (some headless builds do), the
 * switch is emulated on the page itself: `visibilityState` reads "hidden", then "visible",
 * each with its visibilitychange event, as a browser fires them.
 */
async function switchAwayAndBack(page: Page) {
  await page.evaluate(() => {
    const seen = window as unknown as { hiddenSeen?: boolean };
    seen.hiddenSeen = false;
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "hidden") seen.hiddenSeen = true;
    });
  });
  const other = await page.context().newPage();
  await other.goto("about:blank");
  await other.bringToFront();
  await page.waitForTimeout(1_500);
  await page.bringToFront();
  await other.close();
  const hidden = await page.evaluate(() => (window as unknown as { hiddenSeen?: boolean }).hiddenSeen === true);
  if (hidden) return;
  await page.evaluate(async () => {
    const show = (state: "hidden" | "visible") => {
      Object.defineProperty(document, "visibilityState", { configurable: true, get: () => state });
      Object.defineProperty(document, "hidden", { configurable: true, get: () => state === "hidden" });
      document.dispatchEvent(new Event("visibilitychange"));
    };
    show("hidden");
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    show("visible");
  });
}

test("a tab switch and a copy during the attempt reach the trainer's answer sheet and flag the recipient", async ({ browser, baseURL }, testInfo) => {
  test.setTimeout(120_000);
  const trainerContext = await browser.newContext();
  const recipientContext = await browser.newContext({ viewport: { width: 360, height: 740 } });
  try {
    const trainer = await trainerContext.newPage();
    await signIn(trainer, uniqueEmail("integrity-trainer"));

    // The new-test form records integrity signals unless the trainer unticks it.
    await trainer.goto("/tests/new");
    await expect(trainer.getByLabel("Record integrity signals")).toBeChecked();

    // A test of the trainer's own certification, 2 questions, through the API with the session.
    const certification = await apiCall(trainer.request, baseURL!, "POST", "/api/v1/certifications", { name: "Acme Integrity Basics", vendor: "Acme", domains: ["Basics"] });
    await apiCall(trainer.request, baseURL!, "POST", `/api/v1/certifications/${certification.id}/import?format=csv`, [
      "domain,question,option_a,option_b,option_c,option_d,correct,explanation",
      "Basics,Which port does HTTPS use?,80,443,21,25,B,TLS over TCP 443.",
      "Basics,What does MFA add?,A second factor,A longer password,A firewall,A VPN,A,Something you have.",
    ].join("\n"));
    const domains = (await (await trainer.request.get(`/api/v1/certifications/${certification.id}/domains`)).json()).data as { id: number }[];
    const email = uniqueEmail("integrity-recipient");
    const created = await apiCall(trainer.request, baseURL!, "POST", "/api/v1/tests", {
      certification_id: certification.id,
      domains: [domains[0].id],
      questions: 2,
      recipients: [{ email, name: "Ines" }],
      send_email: false,
    });
    expect(created.record_integrity).toBe(true);
    const code: string = created.code;
    const person = created.recipients[0] as { id: number; link: string };
    const readIntegrity = async () => ((await (await trainer.request.get(`/api/v1/tests/${code}/recipients/${person.id}/answers`)).json()) as { integrity: Integrity }).integrity;

    // The start page says what is recorded, and fits a phone.
    const recipient = await recipientContext.newPage();
    await recipient.goto(person.link);
    await expect(recipient.getByTestId("integrity-notice")).toHaveText(
      "This test records: your address and browser at start and submit, when you switch to another tab or window and for how long, copy attempts, and leaving full screen.",
    );
    expect(await recipient.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await keepScreenshot(recipient, "integrity-start-page", testInfo);
    // Opening the page posted "opened": its browser is counted.
    await expect.poll(async () => (await readIntegrity())?.browsers ?? 0, { timeout: 10_000 }).toBe(1);

    await recipient.getByRole("button", { name: "Start", exact: true }).click();
    await expect(recipient.getByRole("heading", { name: "Question 1 of 2" })).toBeVisible();

    // Another tab, then back; then a copy in the page.
    await switchAwayAndBack(recipient);
    await recipient.evaluate(() => document.dispatchEvent(new Event("copy")));

    await expect
      .poll(async () => {
        const integrity = await readIntegrity();
        return integrity ? { hidden: integrity.hidden.count >= 1, copies: integrity.copy_attempts, flagged: integrity.flagged } : null;
      }, { timeout: 15_000 })
      .toEqual({ hidden: true, copies: 1, flagged: true });
    const integrity = (await readIntegrity())!;
    expect(integrity.start?.browser).toBeTruthy();
    expect(integrity.hidden.seconds).toBeGreaterThanOrEqual(1);

    // The trainer's results list flags the recipient; the answer sheet shows the record.
    await trainer.goto(`/tests/${code}`);
    const row = trainer.locator(`[data-testid="recipient-row"][data-email="${email}"]`);
    await expect(row).toHaveAttribute("data-integrity-flagged", "true");
    await expect(row.getByTestId("integrity-flag")).toBeVisible();
    await row.getByTestId("open-answer-sheet").click();
    const record = trainer.getByTestId("answer-sheet").getByTestId("integrity-record");
    await expect(record).toHaveAttribute("data-flagged", "true");
    await expect(record.getByTestId("integrity-hidden")).toHaveAttribute("data-value", String(integrity.hidden.count));
    await expect(record.getByTestId("integrity-copies")).toHaveText("1");
    await keepScreenshot(trainer, "integrity-answer-sheet", testInfo);
  } finally {
    await trainerContext.close();
    await recipientContext.close();
  }
});
