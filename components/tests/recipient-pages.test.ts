import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { TestView } from "@/lib/certification/tests/schemas";
import { RECIPIENTS_PER_PAGE, RecipientPages, recipientCount } from "./recipient-pages";

/** A test view as the page reads it: one page of recipients (contents do not matter here), the total in recipients_pagination. */
const paged = (total: number, onPage: number) =>
  ({ recipients: Array.from({ length: onPage }, () => ({})), recipients_pagination: { page: 1, per_page: RECIPIENTS_PER_PAGE, total } }) as unknown as TestView;

const markup = (test: TestView, page: number) => renderToStaticMarkup(createElement(RecipientPages, { test, page, onPage: () => {} }));

describe("the recipients' pages of the trainer's test page", () => {
  it("counts every recipient of a paged view, and the list of a whole one", () => {
    expect(recipientCount(paged(10_000, 50))).toBe(10_000);
    expect(recipientCount({ recipients: [{}, {}] } as unknown as TestView)).toBe(2);
  });

  it("shows nothing while the recipients fit on one page", () => {
    expect(markup(paged(RECIPIENTS_PER_PAGE, RECIPIENTS_PER_PAGE), 1)).toBe("");
  });

  it("names the page and the range shown, and disables what leads nowhere", () => {
    const first = markup(paged(120, RECIPIENTS_PER_PAGE), 1);
    expect(first).toContain('aria-label="Pages of recipients"');
    expect(first).toContain("Recipients 1–50 of 120 (page 1 of 3)");
    expect(first).toMatch(/<button[^>]*disabled=""[^>]*>Previous<\/button>/);
    const last = markup(paged(120, 20), 3);
    expect(last).toContain("Recipients 101–120 of 120 (page 3 of 3)");
    expect(last).toMatch(/<button[^>]*disabled=""[^>]*>Next<\/button>/);
  });
});
