import { render } from "@react-email/components";
import type { ReactElement } from "react";

/** Escapes text exactly as React does for text and attribute values. */
function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" })[c]!);
}

const marker = (field: string) => `@@certify-field-${field}@@`;

/**
 * Renders one e-mail template for many recipients: React Email renders it once per shape
 * (with a marker in each personal field) and each recipient's HTML is that text with the
 * markers replaced by the escaped values, the same bytes a render per recipient gives
 * (tests compare both). A thousand invitations cost one render, not a thousand.
 *
 * `personal` fields must be strings used as text or attribute values. A template may
 * branch on whether one is empty: empty fields are rendered for real and the shapes are
 * cached apart. When a marker does not survive the render intact, every call falls back to
 * a full render.
 */
export function personalizedRenderer<P extends Record<string, unknown>, K extends keyof P & string>(
  template: (props: P) => ReactElement,
  personal: readonly K[],
): (props: P) => Promise<string> {
  const shapes = new Map<string, Promise<string | null>>();
  return async (props) => {
    const filled = personal.filter((field) => props[field] !== "");
    const shape = JSON.stringify([filled, Object.entries(props).filter(([key]) => !personal.includes(key as K))]);
    let cached = shapes.get(shape);
    if (!cached) {
      const marked = { ...props };
      for (const field of filled) (marked as Record<string, unknown>)[field] = marker(field);
      cached = render(template(marked)).then((html) => (filled.every((field) => html.includes(marker(field))) ? html : null));
      shapes.set(shape, cached);
    }
    const html = await cached;
    if (html === null) return render(template(props));
    // A function replacer: a value's `$&` or `$1` must stay literal text.
    return filled.reduce((out, field) => out.replaceAll(marker(field), () => escapeHtml(String(props[field]))), html);
  };
}
