import { render, toPlainText } from "@react-email/components";
import type { ReactElement } from "react";

/** Escapes text exactly as React does for text and attribute values. */
function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" })[c]!);
}

const marker = (field: string) => `@@certify-field-${field}@@`;

/**
 * Replaces every marker in one pass (a value that happens to contain another field's marker
 * stays as it is) with a function replacer (a value's `$&` or `$1` stays literal text).
 */
function fill(text: string, fields: readonly string[], value: (field: string) => string): string {
  return text.replace(/@@certify-field-([A-Za-z0-9_]+)@@/g, (match, field: string) => (fields.includes(field) ? value(field) : match));
}

/**
 * html-to-text (behind `toPlainText`) collapses runs of whitespace and trims around blocks,
 * so a value with leading, trailing, repeated or unusual whitespace could come out of the
 * text part differently from how it was filled in: such a recipient's text is converted from
 * their own HTML instead (correct, just not cheap).
 */
const textStable = (value: string) => /^(?:[^\s\u200b]+(?: [^\s\u200b]+)*)?$/.test(value);

/** One recipient's e-mail: the HTML part and the text part (`toPlainText` of that HTML). */
export type PersonalizedEmail = { html: string; text: string };

type Shape = { html: string; text: string | null } | null;

/**
 * Renders one e-mail template for many recipients: React Email renders it once per shape
 * (with a marker in each personal field) and each recipient's HTML is that text with the
 * markers replaced by the escaped values, the same bytes a render per recipient gives
 * (tests compare both). A thousand invitations cost one render, not a thousand. The text
 * part is made the same way: `toPlainText` of the marked HTML, once, with the markers
 * replaced by the plain values; it equals `toPlainText` of each recipient's own HTML (a
 * property test checks it).
 *
 * `personal` fields must be strings used as text or attribute values. A template may
 * branch on whether one is empty: empty fields are rendered for real and the shapes are
 * cached apart. When a marker does not survive the render intact, every call falls back to
 * a full render (and when it does not survive the text conversion, to a conversion per call).
 */
export function personalizedRenderer<P extends Record<string, unknown>, K extends keyof P & string>(
  template: (props: P) => ReactElement,
  personal: readonly K[],
): (props: P) => Promise<PersonalizedEmail> {
  const shapes = new Map<string, Promise<Shape>>();
  return async (props) => {
    const filled = personal.filter((field) => props[field] !== "");
    const shape = JSON.stringify([filled, Object.entries(props).filter(([key]) => !personal.includes(key as K))]);
    let cached = shapes.get(shape);
    if (!cached) {
      const marked = { ...props };
      for (const field of filled) (marked as Record<string, unknown>)[field] = marker(field);
      cached = render(template(marked)).then((html) => {
        if (!filled.every((field) => html.includes(marker(field)))) return null;
        const text = toPlainText(html);
        return { html, text: filled.every((field) => text.includes(marker(field))) ? text : null };
      });
      shapes.set(shape, cached);
    }
    const marked = await cached;
    if (marked === null) {
      const html = await render(template(props));
      return { html, text: toPlainText(html) };
    }
    const html = fill(marked.html, filled, (field) => escapeHtml(String(props[field])));
    const text = marked.text !== null && filled.every((field) => textStable(String(props[field]))) ? fill(marked.text, filled, (field) => String(props[field])) : toPlainText(html);
    return { html, text };
  };
}
