import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { Announcements } from "./announcements";

/** The panel as the server renders it (no browser storage: the read state is not known yet). */
const html = (props: Parameters<typeof Announcements>[0]) =>
  renderToStaticMarkup(createElement(QueryClientProvider, { client: new QueryClient() }, createElement(Announcements, props)));

const list = {
  data: [
    { id: "ann_02", title: "Hint released", body: "Look at `robots.txt` <script>x()</script>", created_at: "2026-12-01T10:05:00.000Z" },
    { id: "ann_01", title: "Welcome", body: "Good **luck**.", created_at: "2026-12-01T10:00:00.000Z" },
  ],
};

describe("the announcements panel, server-rendered", () => {
  it("lists them newest first, in safe Markdown, with the live region and no count yet (never a wrong one)", () => {
    const out = html({ ctfId: "ctf_1", initial: list, live: true });
    expect(out.indexOf("Hint released")).toBeLessThan(out.indexOf("Welcome"));
    expect(out).toContain("<code");
    expect(out).toContain("<strong>luck</strong>");
    expect(out).not.toContain("<script");
    expect(out).toMatch(/aria-live="polite"/);
    expect(out).toMatch(/data-testid="announcements-unread">/);
    expect(out).not.toContain("data-count");
    expect(out).not.toContain("new</span>");
    expect(out).toContain('<time dateTime="2026-12-01T10:05:00.000Z"');
    expect(out).toContain("1 Dec 2026, 10:05 UTC");
  });

  it("an open competition without any says so; an archived one without any shows nothing", () => {
    expect(html({ ctfId: "ctf_1", initial: { data: [] }, live: true })).toContain("No announcements yet.");
    expect(html({ ctfId: "ctf_1", initial: { data: [] }, live: false })).toBe("");
  });
});
