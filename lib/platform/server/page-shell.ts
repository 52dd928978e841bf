/**
 * A page rendered once with stand-ins for what differs per visitor (a "shell"), then filled per
 * request: the same bytes a render of the page for that visitor gives, at the cost of a string
 * join. What lib/platform/email/personalize.ts does for e-mails, for an App Router page, whose
 * HTML carries each value twice: as HTML text (escaped as React escapes it) and inside the
 * inline React Server Components payload (`<script>self.__next_f.push([1,"…"])</script>`: a
 * JSON string value, in a JSON string, escaped for a script element, as Next.js writes it).
 *
 * Two kinds of stand-in:
 * - `text`: a marker (`shellMarker(field)`) rendered where the value goes. The value may be any
 *   text; in the payload it must be a whole string value (`"…"`), never part of a longer one.
 * - `verbatim`: a string the page was rendered with (a token of the same length as every
 *   value it is filled with, of characters no escaping touches: [A-Za-z0-9_-]).
 *
 * `parseShell` refuses a page where a stand-in sits where it could not be filled exactly: in a
 * script other than the payload, split across two payload chunks, inside a longer payload
 * string, or in a binary payload chunk. The caller then renders that page for real.
 */

export const shellMarker = (field: string) => `@@certify-shell-${field}@@`;

export type ShellField = { field: string; kind: "text" } | { field: string; kind: "verbatim"; rendered: string };

type Slot = { field: string; kind: ShellField["kind"]; context: "html" | "payload" };

/** A page split at its stand-ins: `parts[i]`, then slot i's value, …, then the last part. */
export type PageShell = { parts: string[]; slots: Slot[]; bytes: number };

const VERBATIM = /^[A-Za-z0-9_-]+$/;
const SCRIPT = /<script\b[^>]*>([\s\S]*?)<\/script>/g;
const PAYLOAD_PUSH = /^(?:\(self\.__next_f=self\.__next_f\|\|\[\]\)|self\.__next_f)\.push\(([\s\S]*)\)$/;

/** Where each stand-in occurs; undefined when one cannot be filled exactly. */
export function parseShell(html: string, fields: readonly ShellField[]): PageShell | undefined {
  const needles = fields.map((f) => ({ ...f, needle: f.kind === "text" ? shellMarker(f.field) : f.rendered }));
  if (needles.some((n) => n.kind === "verbatim" && !VERBATIM.test(n.needle))) return undefined;
  const scripts = scriptRanges(html);
  if (scripts === undefined) return undefined;
  const payload = scripts.filter((s) => s.payload !== undefined).map((s) => s.payload!).join("");

  const found: { at: number; slot: Slot; length: number }[] = [];
  for (const n of needles) {
    let inPayload = 0;
    for (let at = html.indexOf(n.needle); at !== -1; at = html.indexOf(n.needle, at + n.needle.length)) {
      const script = scripts.find((s) => s.start <= at && at < s.end);
      if (script && script.payload === undefined) return undefined; // a script of another kind
      if (script) {
        inPayload++;
        const whole = html.startsWith('\\"', at - 2) && html.startsWith('\\"', at + n.needle.length);
        if (n.kind === "text" && !whole) return undefined;
      }
      found.push({ at, length: n.needle.length, slot: { field: n.field, kind: n.kind, context: script ? "payload" : "html" } });
    }
    // The payload as the browser reassembles it: a stand-in split across two chunks shows up only there.
    if (count(payload, n.needle) !== inPayload) return undefined;
  }
  found.sort((a, b) => a.at - b.at);
  const parts: string[] = [];
  let from = 0;
  for (const f of found) {
    if (f.at < from) return undefined; // overlapping stand-ins
    parts.push(html.slice(from, f.at));
    from = f.at + f.length;
  }
  parts.push(html.slice(from));
  return { parts, slots: found.map((f) => f.slot), bytes: html.length * 2 };
}

/** The page for these values. A verbatim value must have the shape of the string it replaces. */
export function fillShell(shell: PageShell, values: Readonly<Record<string, string>>): string {
  let html = shell.parts[0];
  shell.slots.forEach((slot, i) => {
    const value = values[slot.field];
    if (value === undefined) throw new Error(`page shell: no value for ${slot.field}`);
    if (slot.kind === "verbatim" && !VERBATIM.test(value)) throw new Error(`page shell: ${slot.field} is not verbatim-safe`);
    html += (slot.kind === "verbatim" ? value : slot.context === "html" ? escapeHtml(value) : payloadString(value)) + shell.parts[i + 1];
  });
  return html;
}

/** Escapes text exactly as React does for text and attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" })[c]!);
}

/**
 * A whole string value of the payload as it stands in the page: React Flight's string (a
 * leading `$` doubled, JSON), inside Next.js's `JSON.stringify([1, chunk])`, escaped for a
 * script element (next/dist/shared/lib/htmlescape.js `htmlEscapeJsonString`).
 */
export function payloadString(value: string): string {
  const flight = JSON.stringify(value.startsWith("$") ? `$${value}` : value).slice(1, -1);
  return JSON.stringify(flight)
    .slice(1, -1)
    .replace(/[&><\u2028\u2029]/g, (c) => ({ "&": "\\u0026", ">": "\\u003e", "<": "\\u003c", "\u2028": "\\u2028", "\u2029": "\\u2029" })[c]!);
}

type ScriptRange = { start: number; end: number; payload?: string };

/** Every script element; a payload push's decoded text chunk with it (undefined: not a text chunk of the payload). */
function scriptRanges(html: string): ScriptRange[] | undefined {
  const ranges: ScriptRange[] = [];
  for (const match of html.matchAll(SCRIPT)) {
    const start = match.index;
    const range: ScriptRange = { start, end: start + match[0].length };
    const push = PAYLOAD_PUSH.exec(match[1]);
    if (push) {
      let data: unknown;
      try {
        data = JSON.parse(push[1]);
      } catch {
        return undefined;
      }
      if (!Array.isArray(data)) return undefined;
      if (data[0] === 1 && typeof data[1] === "string") range.payload = data[1];
      else if (data[0] === 0 && data.length === 1) range.payload = ""; // the bootstrap instruction
      else return undefined; // binary or form-state chunks: not filled here
    }
    ranges.push(range);
  }
  return ranges;
}

function count(text: string, needle: string): number {
  let n = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) n++;
  return n;
}
