import { render, toPlainText } from "@react-email/components";
import fc from "fast-check";
import { createElement } from "react";
import { describe, expect, it, vi } from "vitest";
import { TestInvitationEmail, type TestInvitationProps } from "@/lib/certification/emails/test-invitation";
import { personalizedRenderer } from "./personalize";

// The real toPlainText, counted: the text part of many recipients must cost one conversion.
vi.mock("@react-email/components", async (importOriginal) => {
  const original = await importOriginal<typeof import("@react-email/components")>();
  return { ...original, toPlainText: vi.fn(original.toPlainText) };
});

const base: TestInvitationProps = { locale: "en", name: "", testName: "AWS CLF-C02 test", certification: "AWS CLF-C02", questions: 20, settings: ["Time limit: 30 minutes from when you press Start."], link: "", trainer: "Acme Training" };
const people: Pick<TestInvitationProps, "name" | "link">[] = [
  { name: "Ada Lovelace", link: "http://127.0.0.1:3000/t/abc123" },
  { name: "", link: "http://127.0.0.1:3000/t/no-name" },
  { name: `O'Brien <script>alert("x")</script> & co`, link: "http://127.0.0.1:3000/t/q?a=1&b=\"2\"" },
  { name: "Zoë 山田 — $& $1 $$", link: "http://127.0.0.1:3000/t/dollar$&" },
];

describe("personalizedRenderer", () => {
  it("gives each recipient the same bytes as a render of their own, escaping included", async () => {
    const fast = personalizedRenderer(TestInvitationEmail, ["name", "link"]);
    for (const person of people) {
      const props = { ...base, ...person };
      expect((await fast(props)).html, person.name || "(no name)").toBe(await render(createElement(TestInvitationEmail, props)));
    }
  });

  it("gives each recipient the text part toPlainText makes of their own HTML, with their own name and link", async () => {
    const fast = personalizedRenderer(TestInvitationEmail, ["name", "link"]);
    for (const person of people) {
      const { html, text } = await fast({ ...base, ...person });
      expect(text, person.name || "(no name)").toBe(toPlainText(html));
      if (person.name) expect(text).toContain(`Hello ${person.name},`);
      expect(text).toContain(person.link);
      expect(text).not.toContain("@@certify-field");
    }
  });

  it("converts the HTML to text once for 1,000 recipients, not once each", async () => {
    const fast = personalizedRenderer(TestInvitationEmail, ["name", "link"]);
    vi.mocked(toPlainText).mockClear();
    const texts = await Promise.all(
      Array.from({ length: 1000 }, (_, i) => fast({ ...base, name: `Recipient ${i + 1}`, link: `http://localhost:3000/t/token${i + 1}` })),
    );
    expect(vi.mocked(toPlainText)).toHaveBeenCalledTimes(1);
    expect(texts[41].text).toContain("Hello Recipient 42,");
    expect(texts[41].text).toContain("http://localhost:3000/t/token42");
    expect(texts[41].text).toBe(toPlainText(texts[41].html));
  });

  it("keeps text equal to toPlainText of the personalised HTML for any name (whitespace, markup, markers)", async () => {
    const fast = personalizedRenderer(TestInvitationEmail, ["name", "link"]);
    const name = fc.oneof(
      fc.string({ maxLength: 40, unit: "grapheme" }),
      fc.stringMatching(/^[ \t\nA-Za-z<>&'"$\u00a0\u200b]{0,20}$/),
      fc.constantFrom("@@certify-field-link@@", "  Ada  ", "Ada\nLovelace", "&amp; &lt;b&gt;"),
    );
    const link = fc.stringMatching(/^[A-Za-z0-9_-]{1,32}$/).map((token) => `http://localhost:3000/t/${token}`);
    await fc.assert(
      fc.asyncProperty(name, link, async (n, l) => {
        const { html, text } = await fast({ ...base, name: n, link: l });
        expect(text).toBe(toPlainText(html));
      }),
      { numRuns: 150 },
    );
  }, 60_000);

  it("never lets a recipient's name become markup", async () => {
    const { html } = await personalizedRenderer(TestInvitationEmail, ["name", "link"])({ ...base, ...people[2] });
    expect(html).not.toContain("<script>");
    expect(html).toContain("O&#x27;Brien &lt;script&gt;");
  });

  it("renders each shared shape apart: another trainer or certification is not served a cached text", async () => {
    const fast = personalizedRenderer(TestInvitationEmail, ["name", "link"]);
    const first = (await fast({ ...base, ...people[0] })).html;
    const other = (await fast({ ...base, ...people[0], trainer: "Other Academy", certification: "AZ-900" })).html;
    expect(first).toContain("Acme Training");
    expect(other).toContain("Other Academy");
    expect(other).toContain("AZ-900");
    expect(other).not.toContain("Acme Training");
  });
});
