import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { EmailDeliveryStatus } from "@/components/tests/email-delivery";
import { emailDeliveryStatuses, type EmailDeliveryView } from "@/lib/certification/tests/schemas";

const render = (delivery: EmailDeliveryView) =>
  renderToStaticMarkup(createElement(EmailDeliveryStatus, { delivery, correct: "Add the corrected address." }));
/** What a screen reader (or a reader without colour) gets: the text, without the markup. */
const textOf = (html: string) => html.replace(/<[^>]+>/g, "").replace(/&#x27;/g, "'").replace(/&quot;/g, '"');

describe("the e-mail status on the test and class pages", () => {
  it("a bounce says so in words, with its reason and what to do, besides the colour and the sign", () => {
    const html = render({ status: "bounced", detail: "Permanent bounce (General): 550 5.1.1 user unknown", updated_at: "2026-01-01T10:00:00.000Z" });
    const text = textOf(html);
    expect(text).toContain("E-mail status: ⚠Bounced");
    expect(text).toContain("This address did not get the e-mail.");
    expect(text).toContain("Reason: Permanent bounce (General): 550 5.1.1 user unknown");
    expect(text).toContain("Add the corrected address.");
    expect(html).toContain('data-email-status="bounced"');
    expect(html).toContain('aria-hidden="true"'); // the sign repeats the words; it is not read out
  });

  it("a failed mail shows the provider's refusal; a delivered one no warning", () => {
    expect(textOf(render({ status: "failed", detail: "Invalid `to` field.", updated_at: null }))).toContain("Reason: Invalid `to` field.");
    const delivered = textOf(render({ status: "delivered", detail: null, updated_at: "2026-01-01T10:00:00.000Z" }));
    expect(delivered).toContain("Delivered");
    expect(delivered).not.toContain("⚠");
    expect(delivered).not.toContain("did not get");
  });

  it("a link handed to the caller (send_email: false) says so, not that an e-mail went out", () => {
    const text = textOf(render({ status: "not_sent", detail: null, updated_at: null }));
    expect(text).toContain("Link handed over, not e-mailed");
    expect(text).not.toContain("⚠");
  });

  it("every status reads differently", () => {
    const texts = emailDeliveryStatuses.map((status) => textOf(render({ status, detail: null, updated_at: null })));
    expect(new Set(texts).size).toBe(emailDeliveryStatuses.length);
  });
});
