import { render } from "@react-email/components";
import { createElement } from "react";
import { describe, expect, it } from "vitest";
import { TestInvitationEmail, type TestInvitationProps } from "./templates/test-invitation";
import { personalizedRenderer } from "./personalize";

const base: TestInvitationProps = { name: "", certification: "AWS CLF-C02", questions: 20, link: "", trainer: "Acme Training" };
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
      expect(await fast(props), person.name || "(no name)").toBe(await render(createElement(TestInvitationEmail, props)));
    }
  });

  it("never lets a recipient's name become markup", async () => {
    const html = await personalizedRenderer(TestInvitationEmail, ["name", "link"])({ ...base, ...people[2] });
    expect(html).not.toContain("<script>");
    expect(html).toContain("O&#x27;Brien &lt;script&gt;");
  });

  it("renders each shared shape apart: another trainer or certification is not served a cached text", async () => {
    const fast = personalizedRenderer(TestInvitationEmail, ["name", "link"]);
    const first = await fast({ ...base, ...people[0] });
    const other = await fast({ ...base, ...people[0], trainer: "Other Academy", certification: "AZ-900" });
    expect(first).toContain("Acme Training");
    expect(other).toContain("Other Academy");
    expect(other).toContain("AZ-900");
    expect(other).not.toContain("Acme Training");
  });
});
