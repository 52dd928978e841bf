import { XMLValidator } from "fast-xml-parser";
import type { Steps } from "./slices";
import { FormatSyntaxError, lineFinder } from "./types";

/**
 * A linear scan of an XML document into the elements directly under its root, so that each can
 * be checked and parsed on its own, with pauses between them (see ./slices): fast-xml-parser
 * takes a whole document in one call, a second for a 4 MB file. The scan only finds where things
 * start and end, with indexOf and sticky regexes (no backtracking); whether an element is well
 * formed is left to XMLValidator, run on the element's own text, its error lines shifted by the
 * element's line. What lies outside the elements (prolog, the root's tags, what follows the root)
 * is checked here.
 */

/** An element directly under the root: its tag name, line, and text (from `<` to its end). */
export type TopElement = { name: string; line: number; text: string };

/**
 * The root element's name and line; `children` then hands each child element of the root, in
 * order and checked well formed, to `visit`, pausing between them.
 */
export type XmlScan = { root: { name: string; line: number }; children: (visit: (element: TopElement) => void) => Steps<void> };

/** Elements are pause points; so is every this many tags within one element (a single element may be the whole file). */
const PAUSE_EVERY_TAGS = 500;

const NAME = /[^\s/>!?<"'=]+/y;
const SPACE = /\s*/y;
const TAG_END_OR_QUOTE = /[>"']/g;

const notWellFormed = (line: number, what: string) => new FormatSyntaxError(`Line ${line}: this is not well-formed XML (${what}).`, line);

/**
 * A function from an offset to its 1-based line. The scan asks for growing offsets, so each call
 * only counts the line breaks since the last one (a smaller offset counts again from the start).
 */
function lineCounter(text: string): (offset: number) => number {
  let counted = 0;
  let line = 1;
  return (offset) => {
    if (offset < counted) {
      counted = 0;
      line = 1;
    }
    for (let next = text.indexOf("\n", counted); next !== -1 && next < offset; next = text.indexOf("\n", next + 1)) line += 1;
    counted = offset;
    return line;
  };
}

/** The tag name at `offset` (just after `<` or `</`), or "" when there is none. */
function nameAt(text: string, offset: number): string {
  NAME.lastIndex = offset;
  return NAME.exec(text)?.[0] ?? "";
}

/** The offset of the `>` that ends the tag opened at `start`; a `>` inside a quoted attribute value does not. -1 when there is none. */
function tagEnd(text: string, start: number): number {
  TAG_END_OR_QUOTE.lastIndex = start;
  for (;;) {
    const found = TAG_END_OR_QUOTE.exec(text);
    if (!found) return -1;
    if (found[0] === ">") return found.index;
    const close = text.indexOf(found[0], found.index + 1);
    if (close < 0) return -1;
    TAG_END_OR_QUOTE.lastIndex = close + 1;
  }
}

const SKIPPED = [
  { open: "<!--", close: "-->", what: "a comment" },
  { open: "<![CDATA[", close: "]]>", what: "a CDATA section" },
  { open: "<?", close: "?>", what: "a processing instruction" },
];

/**
 * When a comment, CDATA section or processing instruction starts at `offset`: the offset just
 * after it (it holds no markup). Undefined when none starts there.
 */
function skipUnparsed(text: string, offset: number, lineOf: (offset: number) => number): number | undefined {
  for (const { open, close, what } of SKIPPED) {
    if (!text.startsWith(open, offset)) continue;
    const end = text.indexOf(close, offset + open.length);
    if (end < 0) throw notWellFormed(lineOf(offset), `${what} that starts here is never closed`);
    return end + close.length;
  }
  return undefined;
}

/** The offset just after a DOCTYPE starting at `offset`, internal subset (`[…]`) included. */
function skipDoctype(text: string, offset: number, lineOf: (offset: number) => number): number {
  const bracket = text.indexOf("[", offset);
  const close = text.indexOf(">", offset);
  const subsetEnd = bracket >= 0 && bracket < close ? text.indexOf("]", bracket) : -1;
  const end = subsetEnd >= 0 ? text.indexOf(">", subsetEnd) : bracket >= 0 && bracket < close ? -1 : close;
  if (end < 0) throw notWellFormed(lineOf(offset), "the DOCTYPE that starts here is never closed");
  return end + 1;
}

/** The offset of the root element's `<`: before it only the XML declaration, comments, processing instructions, a DOCTYPE and white space. */
function rootStart(text: string, lineOf: (offset: number) => number): number {
  let offset = 0;
  for (;;) {
    SPACE.lastIndex = offset;
    SPACE.exec(text);
    offset = SPACE.lastIndex;
    if (offset >= text.length) throw new FormatSyntaxError("Line 1: the file holds no XML element; a Moodle question file is a <quiz> element.", 1);
    if (text[offset] !== "<") {
      const line = lineOf(offset);
      throw new FormatSyntaxError(`Line ${line}: this is not XML: an XML file starts with <?xml …?> or its root element (<quiz> for Moodle).`, line);
    }
    if (/^<\?xml[\s?]/i.test(text.slice(offset, offset + 6)) && offset !== 0) {
      throw notWellFormed(lineOf(offset), "the <?xml …?> declaration must be at the very start of the file");
    }
    const skipped = skipUnparsed(text, offset, lineOf);
    if (skipped !== undefined && !text.startsWith("<![CDATA[", offset)) {
      offset = skipped;
      continue;
    }
    if (text.startsWith("<!DOCTYPE", offset)) {
      offset = skipDoctype(text, offset, lineOf);
      continue;
    }
    if (text[offset + 1] === "!" || nameAt(text, offset + 1) === "") throw notWellFormed(lineOf(offset), "markup where the root element should start");
    return offset;
  }
}

/**
 * The end (offset just after) of the element whose start tag opens at `start`, found by
 * counting start and end tags; -1 when the file ends first. Tag names are not matched here:
 * XMLValidator does that on the element's text.
 */
function* elementEnd(text: string, start: number, lineOf: (offset: number) => number): Steps<number> {
  let depth = 0;
  let offset = start;
  for (let tags = 1; ; tags += 1) {
    if (tags % PAUSE_EVERY_TAGS === 0) yield;
    const lt = text.indexOf("<", offset);
    if (lt < 0) return -1;
    const skipped = skipUnparsed(text, lt, lineOf);
    if (skipped !== undefined) {
      offset = skipped;
      continue;
    }
    // XMLValidator lets a DOCTYPE inside an element pass (and the parser then throws): refused here.
    if (text[lt + 1] === "!") throw notWellFormed(lineOf(lt), 'a "<!" declaration inside an element; only comments and CDATA may be there');
    const gt = tagEnd(text, lt);
    if (gt < 0) return -1;
    offset = gt + 1;
    if (text[lt + 1] === "/") depth -= 1;
    else if (text[gt - 1] !== "/") depth += 1;
    if (depth <= 0) return offset;
  }
}

/**
 * XMLValidator on one element's text; its error line is within the element, so shifted by the
 * element's first line. `runsToEnd`: the file ends before the element does, so it throws in any
 * case; an error the validator places at the element's very start is then the element left open.
 */
function checkElement(element: TopElement, runsToEnd: boolean): void {
  const result = XMLValidator.validate(element.text);
  if (result === true && !runsToEnd) return;
  if (result === true || (runsToEnd && result.err.line === 1 && result.err.col === 1)) {
    throw notWellFormed(element.line, `the <${element.name}> element that starts here is never closed`);
  }
  throw notWellFormed(element.line + result.err.line - 1, result.err.msg);
}

/**
 * The document's root and, as steps, its child elements, each checked well formed. Throws
 * FormatSyntaxError (with the line) for text that is not XML, a DOCTYPE that declares entities
 * (the parser expands none, but such a file is no Moodle file and may be an entity bomb), and
 * anything malformed the scan meets.
 */
export function scanXml(text: string): XmlScan {
  if (text.trim() === "") throw new FormatSyntaxError("The file is empty.", 1);
  const entity = /<!ENTITY/i.exec(text);
  if (entity && /<!DOCTYPE/i.test(text)) {
    const line = lineFinder(text)(entity.index);
    throw new FormatSyntaxError(`Line ${line}: the file declares its own entities (<!ENTITY>); remove the DOCTYPE, Moodle files have none.`, line);
  }
  const lineOf = lineCounter(text);
  const start = rootStart(text, lineOf);
  const root = { name: nameAt(text, start + 1), line: lineOf(start) };
  return { root, children: (visit) => childElements(text, start, root, lineOf, visit) };
}

/** The root's children, one step each; then what follows the root is checked (comments, processing instructions and white space only). */
function* childElements(
  text: string,
  rootAt: number,
  root: XmlScan["root"],
  lineOf: (offset: number) => number,
  visit: (element: TopElement) => void,
): Steps<void> {
  const rootTagEnd = tagEnd(text, rootAt);
  if (rootTagEnd < 0) throw notWellFormed(root.line, `the <${root.name}> tag is never closed with ">"`);
  let offset = rootTagEnd + 1;
  if (text[rootTagEnd - 1] !== "/") offset = yield* childrenUntilRootEnd(text, offset, root, lineOf, visit);
  for (;;) {
    SPACE.lastIndex = offset;
    SPACE.exec(text);
    offset = SPACE.lastIndex;
    if (offset >= text.length) return;
    const skipped = text.startsWith("<![CDATA[", offset) ? undefined : skipUnparsed(text, offset, lineOf);
    if (skipped === undefined) throw notWellFormed(lineOf(offset), `content after the end of the root element <${root.name}>`);
    offset = skipped;
  }
}

/**
 * From just after the root's start tag to just after its end tag: each child element is checked
 * and visited, with a pause after it; text, comments, CDATA and processing instructions between
 * them are passed over (Moodle's reader ignores them too).
 */
function* childrenUntilRootEnd(
  text: string,
  from: number,
  root: XmlScan["root"],
  lineOf: (offset: number) => number,
  visit: (element: TopElement) => void,
): Steps<number> {
  let offset = from;
  for (;;) {
    const lt = text.indexOf("<", offset);
    if (lt < 0) throw new FormatSyntaxError(`Line ${root.line}: the <${root.name}> element that starts here is never closed; the file must end with </${root.name}>.`, root.line);
    const skipped = skipUnparsed(text, lt, lineOf);
    if (skipped !== undefined) {
      offset = skipped;
      continue;
    }
    if (text[lt + 1] === "/") {
      const name = nameAt(text, lt + 2);
      const gt = tagEnd(text, lt);
      if (name !== root.name || gt < 0) throw notWellFormed(lineOf(lt), `</${name}> where </${root.name}> should close the <${root.name}> of line ${root.line}`);
      return gt + 1;
    }
    if (text[lt + 1] === "!") throw notWellFormed(lineOf(lt), `a "<!" declaration inside <${root.name}>; only comments and CDATA may be there`);
    if (nameAt(text, lt + 1) === "") throw notWellFormed(lineOf(lt), 'a "<" that starts no tag; write it as &lt;');
    const line = lineOf(lt);
    const name = nameAt(text, lt + 1);
    const end = yield* elementEnd(text, lt, lineOf);
    const element = { name, line, text: text.slice(lt, end < 0 ? text.length : end) };
    checkElement(element, end < 0);
    visit(element);
    yield;
    offset = end;
  }
}
