import { XMLParser } from "fast-xml-parser";
import { plainTextOf } from "./plain-text";
import type { Steps } from "./slices";
import { scanXml, type TopElement } from "./xml-scan";
import {
  answerOf,
  categoryPathOfDomain,
  domainOfCategoryPath,
  fractionOfRight,
  FormatSyntaxError,
  type BankQuestion,
  type ParsedItem,
  type WrittenBank,
} from "./types";

/**
 * Moodle XML (docs.moodle.org "Moodle XML format"): a `<quiz>` of `<question type="…">`
 * elements, read with fast-xml-parser. A file is not parsed in one call (a second for 4 MB,
 * with every other request of the server waiting): ./xml-scan cuts it into the elements under
 * `<quiz>`, each checked and parsed alone, with pauses between them (./slices).
 *
 * Entities: the parser's own entity processing is off (so a DOCTYPE can declare nothing that
 * expands: no "billion laughs"); the five XML entities and character references are decoded
 * here, outside CDATA only. A DOCTYPE that declares entities is refused as a syntax error.
 */

/** One node of the parser's ordered output: `{ tag: children, ":@": attributes }` or `{ "#text": … }`. */
type XmlNode = Record<string, unknown>;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: "",
  processEntities: false,
  htmlEntities: false,
  cdataPropName: "#cdata",
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
});

const skippedTypeNames: Record<string, string> = {
  essay: "Essay questions",
  match: "Matching questions",
  matching: "Matching questions",
  numerical: "Numerical questions",
  shortanswer: "Short-answer questions",
  multianswer: "Cloze questions (embedded answers)",
  cloze: "Cloze questions (embedded answers)",
  description: "Descriptions (text with no answers)",
  ddwtos: "Drag-and-drop into text questions",
  ddimageortext: "Drag-and-drop onto image questions",
  ddmarker: "Drag-and-drop markers questions",
  gapselect: "Select-missing-words questions",
  calculated: "Calculated questions",
  calculatedsimple: "Calculated questions",
  calculatedmulti: "Calculated multichoice questions",
  randomsamatch: "Random short-answer matching questions",
  ordering: "Ordering questions",
};

const XML_ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

/** The XML entities and character references of a text decoded; any other entity is left as written. */
function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return XML_ENTITIES[name] ?? whole;
  });
}

const tagOf = (node: XmlNode) => Object.keys(node).find((key) => key !== ":@");
const childrenOf = (node: XmlNode | undefined): XmlNode[] => {
  const tag = node && tagOf(node);
  return tag && Array.isArray(node[tag]) ? (node[tag] as XmlNode[]) : [];
};
const attributeOf = (node: XmlNode | undefined, name: string): string | undefined => {
  const value = (node?.[":@"] as Record<string, string> | undefined)?.[name];
  return value === undefined ? undefined : decodeEntities(value);
};
const childNamed = (node: XmlNode | undefined, tag: string) => childrenOf(node).find((child) => tagOf(child) === tag);
const childrenNamed = (node: XmlNode | undefined, tag: string) => childrenOf(node).filter((child) => tagOf(child) === tag);

/** The character data of an element: text (entities decoded) and CDATA (as written), in order. */
function contentOf(node: XmlNode | undefined): string {
  return childrenOf(node)
    .map((child) => {
      if (typeof child["#text"] === "string") return decodeEntities(child["#text"]);
      if (Array.isArray(child["#cdata"])) return (child["#cdata"] as XmlNode[]).map((part) => String(part["#text"] ?? "")).join("");
      return "";
    })
    .join("");
}

/**
 * The plain text of a Moodle text element (`<questiontext format="…"><text>…</text>`): html and
 * moodle_auto_format (which may hold HTML) are turned to text; plain_text and markdown are kept.
 * Moodle writes html when it names no format.
 */
function textOf(element: XmlNode | undefined, fallbackFormat = "html"): string {
  if (!element) return "";
  const format = attributeOf(element, "format") ?? fallbackFormat;
  const text = contentOf(childNamed(element, "text") ?? element);
  return (format === "html" || format === "moodle_auto_format" ? plainTextOf(text) : text).trim();
}

type Answer = { text: string; fraction: number; feedback: string };

function answersOf(question: XmlNode): Answer[] {
  const questionFormat = attributeOf(childNamed(question, "questiontext"), "format") ?? "html";
  return childrenNamed(question, "answer").map((answer) => ({
    text: textOf(answer, questionFormat),
    fraction: Number(attributeOf(answer, "fraction") ?? "0"),
    feedback: textOf(childNamed(answer, "feedback"), questionFormat),
  }));
}

function explanationOf(question: XmlNode, rights: Answer[]): string {
  const general = textOf(childNamed(question, "generalfeedback"));
  return general || rights.map((answer) => answer.feedback).filter((feedback) => feedback !== "").join(" ");
}

function multichoiceOf(question: XmlNode, domain: string | null): BankQuestion | string {
  const answers = answersOf(question);
  const single = !/^(false|0)$/i.test(contentOf(childNamed(question, "single")).trim());
  // One answer: the one worth 100% (a partly right one counts as wrong). Several: every one worth something.
  const rights = answers.flatMap((answer, index) => ((single ? answer.fraction >= 100 : answer.fraction > 0) ? [index] : []));
  if (single && rights.length === 0) {
    return answers.some((answer) => answer.fraction > 0)
      ? "No option is worth 100%; a one-answer question needs an option worth 100% (partial credit is not delivered here)."
      : "No option is marked right; mark the right option with fraction 100.";
  }
  if (single && rights.length > 1) return "Several options are worth 100% in a one-answer question; keep one, or make it a multiple-answer question.";
  const answer = answerOf(rights);
  if (typeof answer === "string") return answer;
  return {
    domain,
    prompt: textOf(childNamed(question, "questiontext")),
    options: answers.map((option) => option.text),
    ...answer,
    explanation: explanationOf(question, rights.map((index) => answers[index])),
  };
}

function trueFalseOf(question: XmlNode, domain: string | null): BankQuestion | string {
  const right = answersOf(question).find((answer) => answer.fraction >= 100);
  if (!right) return "Neither true nor false is marked right (fraction 100).";
  return {
    domain,
    prompt: textOf(childNamed(question, "questiontext")),
    options: ["True", "False"],
    type: "single",
    correct: right.text.toLowerCase() === "false" ? 1 : 0,
    explanation: explanationOf(question, [right]),
  };
}

/** The element's own node, parsed from its text (which XMLValidator passed). */
function nodeOf(element: TopElement): XmlNode {
  let node: XmlNode | undefined;
  try {
    node = (parser.parse(element.text) as XmlNode[]).find((parsed) => tagOf(parsed) === element.name);
  } catch (error) {
    // The parser refuses a few things the validator lets pass: still a file error, not a crash.
    throw new FormatSyntaxError(`Line ${element.line}: this is not well-formed XML (${(error as Error).message}).`, element.line);
  }
  if (!node) throw new FormatSyntaxError(`Line ${element.line}: this <${element.name}> element could not be read as XML.`, element.line);
  return node;
}

export function* readMoodleXml(input: string): Steps<ParsedItem[]> {
  const { root, children } = scanXml(input.replace(/^\uFEFF/, ""));
  if (root.name !== "quiz") {
    throw new FormatSyntaxError(`Line ${root.line}: this XML is not a Moodle question file: its root element must be <quiz>, not <${root.name}>.`, root.line);
  }
  const items: ParsedItem[] = [];
  let domain: string | null = null;
  yield* children((element) => {
    if (element.name !== "question") return;
    const question = nodeOf(element);
    const type = attributeOf(question, "type") ?? "";
    const { line } = element;
    if (type === "category") {
      const category = childNamed(question, "category");
      domain = domainOfCategoryPath(contentOf(childNamed(category, "text") ?? category));
      return;
    }
    const name = contentOf(childNamed(childNamed(question, "name"), "text")).trim() || undefined;
    const read =
      type === "multichoice"
        ? multichoiceOf(question, domain)
        : type === "truefalse"
          ? trueFalseOf(question, domain)
          : `${skippedTypeNames[type] ?? `Questions of type "${type}"`} are not delivered here; skipped.`;
    items.push(typeof read === "string" ? { line, name, reason: read } : { line, name, question: read });
  });
  return items;
}

/** Text as XML character data. Line breaks are kept; a lone CR would be read back as LF, so CRLF and CR become LF first. */
const escapeXml = (text: string) =>
  text
    .replace(/\r\n?/g, "\n")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;");

const textElement = (tag: string, text: string, indent: string) =>
  `${indent}<${tag} format="plain_text">\n${indent}  <text>${escapeXml(text)}</text>\n${indent}</${tag}>`;

function categoryXml(domain: string | null): string {
  const path = domain === null ? "$course$/top" : categoryPathOfDomain(domain);
  return `  <question type="category">\n    <category>\n      <text>${escapeXml(path)}</text>\n    </category>\n  </question>`;
}

function questionXml(question: BankQuestion, index: number): string {
  const rights = new Set(typeof question.correct === "number" ? [question.correct] : question.correct);
  // Moodle's fractions: one answer 100/0; several 100/N for each right one and -100 for each wrong one.
  const right = question.type === "multiple" ? fractionOfRight(rights.size) : "100";
  const wrong = question.type === "multiple" ? "-100" : "0";
  const answers = question.options.map(
    (option, optionIndex) =>
      `    <answer fraction="${rights.has(optionIndex) ? right : wrong}" format="plain_text">\n      <text>${escapeXml(option)}</text>\n    </answer>`,
  );
  return [
    `  <question type="multichoice">`,
    `    <name>\n      <text>Q${index + 1}</text>\n    </name>`,
    textElement("questiontext", question.prompt, "    "),
    textElement("generalfeedback", question.explanation, "    "),
    `    <defaultgrade>1</defaultgrade>`,
    `    <single>${question.type === "single"}</single>`,
    `    <shuffleanswers>true</shuffleanswers>`,
    `    <answernumbering>abc</answernumbering>`,
    ...answers,
    `  </question>`,
  ].join("\n");
}

/** Written by hand, not with XMLBuilder: the layout Moodle exports is fixed and small, and the escaping is all in one place. */
export function writeMoodleXml(questions: BankQuestion[]): WrittenBank {
  const parts = ['<?xml version="1.0" encoding="UTF-8"?>', "<quiz>", "<!-- Exported from Certify -->"];
  let domain: string | null | undefined;
  questions.forEach((question, index) => {
    if (question.domain !== domain && !(domain === undefined && question.domain === null)) parts.push(categoryXml(question.domain), "");
    domain = question.domain;
    parts.push(questionXml(question, index), "");
  });
  parts.push("</quiz>", "");
  return { text: parts.join("\n"), left_out: [] };
}
