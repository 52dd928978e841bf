import { describe, expect, it } from "vitest";
import { escapeHtml, fillShell, parseShell, payloadString, shellMarker, type ShellField } from "./page-shell";

/** A page as Next.js writes one: the HTML, then the payload in `self.__next_f.push` scripts (chunks as given). */
function page(name: string, token: string, chunks?: (payload: string) => string[]): string {
  const flightName = name.startsWith("$") ? `$${name}` : name; // React Flight doubles a leading `$`
  const payload = `0:["$","main",null,{"token":"${token}","name":${JSON.stringify(flightName)}}]\n1:["t","${token}","d"]\n`;
  const push = (data: unknown[]) => `<script>self.__next_f.push(${JSON.stringify(data).replace(/[&><\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)})</script>`;
  const scripts = (chunks ? chunks(payload) : [payload]).map((chunk) => push([1, chunk])).join("");
  return `<!DOCTYPE html><html><body><a href="/t/${token}">For ${escapeHtml(name)}</a><p title="${escapeHtml(name)}">x</p>` +
    `<script>(self.__next_f=self.__next_f||[]).push([0])</script>${scripts}</body></html>`;
}

const token = "AbCdEfGhIjKlMnOpQrStUvWxYz012345";
const fields: ShellField[] = [
  { field: "token", kind: "verbatim", rendered: token },
  { field: "name", kind: "text" },
];
const marked = page(shellMarker("name"), token);

describe("page shells", () => {
  it("fills to the bytes of a page rendered with the values, whatever the name holds", () => {
    const shell = parseShell(marked, fields)!;
    expect(shell.slots.map((s) => `${s.field}:${s.context}`).sort()).toEqual(["name:html", "name:html", "name:payload", "token:html", "token:payload", "token:payload"]);
    const other = "Zz9_-Zz9_-Zz9_-Zz9_-Zz9_-Zz9_-Zz";
    for (const name of ["Ada", `<script>alert("x")</script> & 'q'`, "$1 \\ back\u2028sep\u2029", "Ünïcødé 漢字 😀", "$$", "a\nb\tc\u0001", shellMarker("token"), "</script><!--"]) {
      expect(fillShell(shell, { name, token: other })).toBe(page(name, other));
    }
  });

  it("payloadString is a whole Flight string value inside Next.js's script", () => {
    expect(payloadString(`a"<b>`)).toBe(String.raw`a\\\"\u003cb\u003e`);
    expect(payloadString("$x")).toBe("$$x");
  });

  it("refuses a marker split across two payload chunks", () => {
    const split = page(shellMarker("name"), token, (payload) => {
      const at = payload.indexOf(shellMarker("name")) + 5;
      return [payload.slice(0, at), payload.slice(at)];
    });
    expect(parseShell(split, fields)).toBeUndefined();
  });

  it("accepts a payload in several chunks when no stand-in is cut", () => {
    const chunked = page(shellMarker("name"), token, (payload) => payload.split(/(?<=\n)/));
    const shell = parseShell(chunked, fields)!;
    expect(fillShell(shell, { name: "Ann", token })).toBe(page("Ann", token, (payload) => payload.split(/(?<=\n)/)));
  });

  it("refuses a marker inside a longer payload string, in another script, or a binary chunk", () => {
    const inside = marked.replace(`\\"${shellMarker("name")}\\"`, `\\"For ${shellMarker("name")}\\"`);
    expect(parseShell(inside, fields)).toBeUndefined();
    expect(parseShell(marked.replace("</body>", `<script>var n="${shellMarker("name")}"</script></body>`), fields)).toBeUndefined();
    expect(parseShell(marked.replace("</body>", `<script>self.__next_f.push([3,"AAAA"])</script></body>`), fields)).toBeUndefined();
  });

  it("refuses a verbatim stand-in that escaping would change, and fills none with such a value", () => {
    expect(parseShell(marked, [{ field: "token", kind: "verbatim", rendered: "a<b" }])).toBeUndefined();
    const shell = parseShell(marked, fields)!;
    expect(() => fillShell(shell, { name: "x", token: "a&b" })).toThrow(/verbatim/);
    expect(() => fillShell(shell, { token })).toThrow(/no value for name/);
  });
});
