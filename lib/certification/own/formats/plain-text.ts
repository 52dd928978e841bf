import { convert } from "html-to-text";

/**
 * HTML (a Moodle question's text, answer or feedback in the html format) as the plain text we
 * deliver: no line wrapping, headings as written (not upper-cased), links as their text only,
 * images left out (a file's images are not imported).
 */
export function plainTextOf(html: string): string {
  return convert(html, {
    wordwrap: false,
    selectors: [
      { selector: "a", options: { ignoreHref: true } },
      { selector: "img", format: "skip" },
      ...(["h1", "h2", "h3", "h4", "h5", "h6"] as const).map((selector) => ({ selector, options: { uppercase: false } })),
    ],
  }).trim();
}
