import { expect, test, type Page } from "@playwright/test";
import { expectNoSeriousViolations } from "./helpers";

/**
 * The API reference (/docs/api: Scalar over the generated OpenAPI document) passes axe like the
 * app's own pages (issue 26): its language is set, an operation renders, and no serious or
 * critical violation is found at 1280 and 360 px, before and after a section is opened (Scalar
 * renders lazily, and app/docs/api/accessibility.ts names and focuses what it renders).
 */

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 360, height: 740 },
]) {
  test(`the API reference renders and passes axe at ${viewport.width} px`, async ({ browser }) => {
    test.setTimeout(120_000);
    const context = await browser.newContext({ viewport });
    try {
      const page = await context.newPage();
      await page.goto("/docs/api");
      await expect(page.locator("html")).toHaveAttribute("lang", "en");
      await expect(page).toHaveTitle("Certify API reference");
      // The first operation of the document, rendered from it.
      await expect(page.getByRole("heading", { name: "List certifications" })).toBeVisible({ timeout: 60_000 });
      await expectNoSeriousViolations(page, `/docs/api at ${viewport.width} px`);

      await page.mouse.move(viewport.width / 2, viewport.height / 2);
      await openTestsSection(page);
      await expect(page.getByRole("heading", { name: "List tests" })).toBeVisible();
      // The copy buttons of the code blocks have a name now (Scalar leaves them unnamed).
      await expect(page.getByRole("button", { name: "Copy code" }).first()).toBeAttached();
      await expectNoSeriousViolations(page, `/docs/api with the Tests section open at ${viewport.width} px`);
    } finally {
      await context.close();
    }
  });
}

/** Scrolls down (the mouse over the content) until the collapsed Tests section's "Show More" is rendered, and opens it. */
async function openTestsSection(page: Page) {
  const showTests = page.getByRole("button", { name: /Show all Tests endpoints/ });
  await expect
    .poll(
      async () => {
        if (await showTests.count()) return true;
        await page.mouse.wheel(0, 1200);
        return false;
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  await showTests.click();
}
