import { parse, type GIFTQuestion, type MultipleChoice, type TextChoice, type TextFormat, type TrueFalse } from "gift-pegjs";
import { plainTextOf } from "./plain-text";
import type { Steps } from "./slices";
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
 * Moodle's GIFT format (docs.moodle.org "GIFT format"), read with gift-pegjs.
 *
 * gift-pegjs parses a whole file but gives no position per question, so the file is cut here
 * into blocks at blank lines (as Moodle's own reader does: a question holds no blank line) and
 * each block is parsed alone; a block's first line is then its question's line, and a syntax
 * error's line is the block's line plus the error's line within it. Reading pauses between
 * blocks (see ./slices): a block is one question.
 */

const skippedTypes: Record<string, string> = {
  Essay: "Essay questions are not delivered here; skipped.",
  Matching: "Matching questions are not delivered here; skipped.",
  Numerical: "Numerical questions are not delivered here; skipped.",
  Short: "Short-answer questions are not delivered here; skipped.",
  Description: "Descriptions (text with no answers) are not delivered here; skipped.",
};
const EMBEDDED_REASON =
  "Missing-word questions (answers embedded in the text) are not delivered here; skipped. Put the answers at the end of the question.";

type Block = { line: number; text: string };

const isBlank = (line: string) => line.trim() === "";
const isComment = (line: string) => /^\s*\/\//.test(line);
const CATEGORY_LINE = /^\s*\$CATEGORY:/;

/** Cutting the file into blocks pauses every this many lines (see ./slices). */
const PAUSE_EVERY_LINES = 500;

/** The file cut at blank lines; blocks of comments only are left out. */
function* blocksOf(text: string): Steps<Block[]> {
  const lines = text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/);
  const blocks: Block[] = [];
  let current: { line: number; lines: string[] } | null = null;
  const close = () => {
    if (current && current.lines.some((line) => !isComment(line))) blocks.push(...splitCategory({ line: current.line, text: current.lines.join("\n") }));
    current = null;
  };
  for (let index = 0; index < lines.length; index += 1) {
    if (index % PAUSE_EVERY_LINES === 0) yield;
    const line = lines[index];
    if (isBlank(line)) close();
    else {
      current ??= { line: index + 1, lines: [] };
      current.lines.push(line);
    }
  }
  close();
  return blocks;
}

/**
 * A block that starts with a `$CATEGORY:` line and goes on with a question (no blank line
 * between) is two blocks: gift-pegjs wants a blank line after a category, Moodle's files do not
 * always have one.
 */
function splitCategory(block: Block): Block[] {
  const lines = block.text.split("\n");
  const first = lines.findIndex((line) => !isComment(line));
  if (first < 0 || !CATEGORY_LINE.test(lines[first])) return [block];
  const rest = lines.slice(first + 1);
  const head = { line: block.line, text: lines.slice(0, first + 1).join("\n") };
  if (!rest.some((line) => !isComment(line))) return [head];
  return [head, { line: block.line + first + 1, text: rest.join("\n") }];
}

/** The line of the question in a block: its first line that is not a comment. */
function questionLineOf(block: Block): number {
  const offset = block.text.split("\n").findIndex((line) => !isComment(line));
  return block.line + Math.max(0, offset);
}

function parseBlock(block: Block): GIFTQuestion[] {
  try {
    return parse(block.text);
  } catch (error) {
    const location = (error as { location?: { start?: { line?: number } } }).location;
    if (!location?.start?.line) throw error;
    const line = block.line + location.start.line - 1;
    throw new FormatSyntaxError(`Line ${line}: this is not valid GIFT (${(error as Error).message}) Check the braces and escape ~ = # { } : with a backslash.`, line);
  }
}

/** A GIFT text as plain text: HTML is turned to text, the other formats are kept as written. */
const textOf = (text: TextFormat | null | undefined) => (text ? (text.format === "html" ? plainTextOf(text.text) : text.text).trim() : "");

/** The weight of a choice in percent: its `%n%`, else 100 for `=` and 0 for `~`. */
const weightOf = (choice: TextChoice) => choice.weight ?? (choice.isCorrect ? 100 : 0);

function explanationOf(general: TextFormat | null, rightFeedback: (TextFormat | null)[]): string {
  const text = textOf(general);
  if (text) return text;
  return rightFeedback
    .map(textOf)
    .filter((feedback) => feedback !== "")
    .join(" ");
}

/**
 * Right options from the weights: when an option is worth 100% ("=" or %100%) the question
 * has one answer, that option (a partly right one counts as wrong: we score all or nothing);
 * else every option worth something is right, and two or more make a multiple-response question.
 */
function multipleChoiceOf(question: MultipleChoice, domain: string | null): BankQuestion | string {
  if (question.hasEmbeddedAnswers) return EMBEDDED_REASON;
  const weights = question.choices.map(weightOf);
  const full = weights.flatMap((weight, index) => (weight >= 100 ? [index] : []));
  const positive = weights.flatMap((weight, index) => (weight > 0 ? [index] : []));
  if (full.length > 1) return 'Several options are fully right ("=" or %100%) in a one-answer question; keep one, or give each right option its share (~%50%…).';
  if (full.length === 0 && positive.length === 1) {
    return `The only right option is worth ${weights[positive[0]]}%; a one-answer question needs an option worth 100% (partial credit is not delivered here).`;
  }
  const rights = full.length === 1 ? full : positive;
  const answer = answerOf(rights);
  if (typeof answer === "string") return answer;
  return {
    domain,
    prompt: textOf(question.stem),
    options: question.choices.map((choice) => textOf(choice.text)),
    ...answer,
    explanation: explanationOf(question.globalFeedback, rights.map((index) => question.choices[index].feedback)),
  };
}

function trueFalseOf(question: TrueFalse, domain: string | null): BankQuestion {
  // `{T#wrong#right}`: the first feedback is shown for a wrong answer, the second for the right one.
  return {
    domain,
    prompt: textOf(question.stem),
    options: ["True", "False"],
    type: "single",
    correct: question.isTrue ? 0 : 1,
    explanation: explanationOf(question.globalFeedback, [question.falseFeedback]),
  };
}

export function* readGift(text: string): Steps<ParsedItem[]> {
  const blocks = yield* blocksOf(text);
  if (blocks.length === 0) throw new FormatSyntaxError("The file has no questions.", 1);
  const items: ParsedItem[] = [];
  let domain: string | null = null;
  for (const block of blocks) {
    yield;
    const line = questionLineOf(block);
    for (const question of parseBlock(block)) {
      if (question.type === "Category") {
        domain = domainOfCategoryPath(question.title);
        continue;
      }
      const name = question.title?.trim() || undefined;
      const read =
        question.type === "MC"
          ? multipleChoiceOf(question, domain)
          : question.type === "TF"
            ? trueFalseOf(question, domain)
            : (skippedTypes[question.type] ?? `${question.type} questions are not delivered here; skipped.`);
      items.push(typeof read === "string" ? { line, name, reason: read } : { line, name, question: read });
    }
  }
  return items;
}

/** Text as GIFT writes it: the special characters escaped, line breaks as `\n`. */
function escapeGift(text: string): string {
  const escaped = text
    .replace(/\r\n?/g, "\n")
    .replace(/[\\~=#{}:]/g, (c) => `\\${c}`)
    .replace(/\n/g, "\\n");
  // A text that starts like a format tag would be taken for one: a `[plain]` tag before it keeps it text.
  return /^\[(html|moodle|plain|markdown)\]/i.test(escaped) ? `[plain]${escaped}` : escaped;
}

/**
 * The answers of a question. A single-answer question is `{=right ~wrong}`; with weights when
 * gift-pegjs would misread that form: an option starting with "%" (read as a weight) or one
 * holding "->" (read as a matching pair).
 */
function answersOf(question: BankQuestion): string {
  const rights = new Set(typeof question.correct === "number" ? [question.correct] : question.correct);
  const weighted = question.type === "multiple" || question.options.some((option) => option.startsWith("%") || option.includes("->"));
  const rightWeight = question.type === "multiple" ? fractionOfRight(rights.size) : "100";
  const wrongWeight = question.type === "multiple" ? "-100" : "0";
  return question.options
    .map((option, index) => {
      const right = rights.has(index);
      const mark = weighted ? `~%${right ? rightWeight : wrongWeight}%` : right ? "=" : "~";
      return `\t${mark}${escapeGift(option)}`;
    })
    .join("\n");
}

export function writeGift(questions: BankQuestion[]): WrittenBank {
  const lines = ["// Exported from Certify", ""];
  let domain: string | null | undefined;
  questions.forEach((question, index) => {
    if (question.domain !== domain && !(domain === undefined && question.domain === null)) {
      // A category path is one line, read as written (no escapes): a line break would end it.
      // A question with no domain after one with a domain goes back to the top category.
      const path = question.domain === null ? "$course$/top" : categoryPathOfDomain(question.domain.replace(/\s*[\r\n]+\s*/g, " "));
      lines.push(`$CATEGORY: ${path}`, "");
    }
    domain = question.domain;
    const explanation = question.explanation.trim() ? `\n\t####${escapeGift(question.explanation)}` : "";
    lines.push(`::Q${index + 1}:: ${escapeGift(question.prompt)} {\n${answersOf(question)}${explanation}\n}`, "");
  });
  return { text: lines.join("\n"), left_out: [] };
}
