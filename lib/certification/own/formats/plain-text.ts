import { compile } from "html-to-text";

/**
 * HTML (a Moodle question's text, answer or feedback in the html format) as the plain text we
 * deliver: no line wrapping, headings as written (not upper-cased), links as their text only,
 * images left out (a file's images are not imported). The options are compiled once: compiling
 * them is most of what a call costs (a Moodle file holds thousands of such texts).
 */
const toText = compile({
  wordwrap: false,
  selectors: [
    { selector: "a", options: { ignoreHref: true } },
    { selector: "img", format: "skip" },
    ...(["h1", "h2", "h3", "h4", "h5", "h6"] as const).map((selector) => ({ selector, options: { uppercase: false } })),
  ],
});

export function plainTextOf(html: string): string {
  // Text without markup or entities is plain already (most answers are), its white space collapsed as HTML shows it.
  if (!/[<&]/.test(html)) return html.replace(/\s+/g, " ").trim();
  return toText(html).trim();
}
