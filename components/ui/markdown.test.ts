import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Markdown } from "./markdown";

const html = (text: string) => renderToStaticMarkup(createElement(Markdown, { text }));

describe("Markdown: organisers' text rendered safely", () => {
  it("renders backticks as code, emphasis, lists and fenced blocks", () => {
    const out = html("Decode `aGVsbG8=` with **base64**.\n\n- one\n- two\n\n```\nnc host 1337\n```");
    expect(out).toContain("<code");
    expect(out).toContain(">aGVsbG8=</code>");
    expect(out).toContain("<strong>base64</strong>");
    expect(out).toMatch(/<ul[^>]*>\s*<li>one<\/li>\s*<li>two<\/li>\s*<\/ul>/);
    expect(out).toMatch(/<pre[^>]*tabindex="0"[^>]*><code[^>]*>nc host 1337\n<\/code><\/pre>/);
  });

  it("never lets raw HTML through, not even as markup of its own", () => {
    const out = html('Hi <script>alert(1)</script> <img src=x onerror="alert(2)"> <b>bold</b>\n\n<div onclick="x()">block</div>');
    expect(out).not.toMatch(/<script|<img|onerror|onclick|<b>|<div onclick/);
    expect(out).toContain("Hi");
  });

  it("drops javascript: links and marks the others noopener nofollow in a new tab", () => {
    const bad = html("[click](javascript:alert(1))");
    expect(bad).not.toContain("javascript:");
    const good = html("[docs](https://example.com/docs)");
    expect(good).toContain('href="https://example.com/docs"');
    expect(good).toContain('rel="noopener nofollow noreferrer"');
    expect(good).toContain('target="_blank"');
  });

  it("loads no image (a stranger's URL would see every player): its alternative text stands in", () => {
    const out = html("![the admin panel](https://tracker.example/pixel.png)");
    expect(out).not.toContain("tracker.example");
    expect(out).toContain("[the admin panel]");
  });

  it("turns headings into strong lines, keeping the page's own outline", () => {
    expect(html("# Big\n\nText")).not.toMatch(/<h[1-6]/);
  });
});
