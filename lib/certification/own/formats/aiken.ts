import type { Steps } from "./slices";
import { FormatSyntaxError, type BankQuestion, type ParsedItem, type WrittenBank } from "./types";

/**
 * The Aiken format (docs.moodle.org "Aiken format"), read and written here (there is no
 * library for it): the question on one line, then its options as `A.` or `A)` lines (up to H),
 * then `ANSWER: <letter>`; blank lines between questions. One right option, no category, no
 * feedback. Read line by line as Moodle does, so a missing blank line between questions is
 * forgiven (the ANSWER line ends a question).
 */

const LETTERS = "ABCDEFGH";
const OPTION_LINE = /^([A-H])[.)]\s+(.*)$/;
const ANSWER_LINE = /^ANSWER:\s*(.*)$/;
/** About a tenth of a millisecond of lines. */
const PAUSE_EVERY = 200;

type Draft = { line: number; promptLines: string[]; options: string[]; answer?: string; problem?: string };

function questionOf(draft: Draft): BankQuestion | string {
  if (draft.problem && draft.answer !== undefined) return draft.problem;
  if (draft.answer === undefined) {
    return draft.options.length === 0
      ? "This text has no options (A. …) and no ANSWER line; is it a question?"
      : "The ANSWER line is missing: end the question with ANSWER: and the letter of the right option.";
  }
  const letter = draft.answer.trim().toUpperCase();
  if (!/^[A-H]$/.test(letter)) return `ANSWER must be one letter, A to H (Aiken has one right option); found "${draft.answer.trim()}".`;
  const correct = LETTERS.indexOf(letter);
  if (correct >= draft.options.length) return `ANSWER names option ${letter}, but the question has ${draft.options.length} option${draft.options.length === 1 ? "" : "s"}.`;
  return { domain: null, prompt: draft.promptLines.join("\n"), options: draft.options, type: "single", correct, explanation: "" };
}

/** Line by line, pausing every PAUSE_EVERY lines (see ./slices). */
export function* readAiken(text: string): Steps<ParsedItem[]> {
  const lines = text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/);
  const items: ParsedItem[] = [];
  let draft: Draft | null = null;
  let sawAikenLine = false;
  const finish = () => {
    if (!draft) return;
    const question = questionOf(draft);
    items.push(typeof question === "string" ? { line: draft.line, reason: question } : { line: draft.line, question });
    draft = null;
  };
  // One line of the file; its early returns end the line, not the loop.
  const readLine = (raw: string, index: number) => {
    const line = raw.trim();
    if (line === "") return finish();
    // A line that starts a question is its text, whatever it looks like (a question may begin "A. ").
    if (!draft) {
      draft = { line: index + 1, promptLines: [line], options: [] };
      return;
    }
    const answer = ANSWER_LINE.exec(line);
    if (answer) {
      sawAikenLine = true;
      draft.answer = answer[1];
      return finish();
    }
    const option = OPTION_LINE.exec(line);
    if (option && option[1] === LETTERS[draft.options.length]) {
      sawAikenLine = true;
      draft.options.push(option[2].trim());
      return;
    }
    if (option && draft.options.length > 0) {
      draft.problem ??= `Option ${option[1]} is out of order: after option ${LETTERS[draft.options.length - 1]} comes ${LETTERS[draft.options.length]}.`;
      return;
    }
    if (draft.options.length === 0) {
      draft.promptLines.push(line);
      return;
    }
    // Text after the options and no ANSWER line: that question ended without one; this starts the next.
    finish();
    draft = { line: index + 1, promptLines: [line], options: [] };
  };
  for (let index = 0; index < lines.length; index += 1) {
    if (index % PAUSE_EVERY === 0) yield;
    readLine(lines[index], index);
  }
  finish();
  if (items.length === 0) throw new FormatSyntaxError("The file is empty.", 1);
  if (!sawAikenLine) {
    const line = items[0].line;
    throw new FormatSyntaxError(`Line ${line}: this is not an Aiken file: no question has options (A. …) and an ANSWER: line.`, line);
  }
  return items;
}

/** One line of Aiken: line breaks become spaces (a question and an option are one line each). */
const oneLine = (text: string) => text.replace(/\s*[\r\n]+\s*/g, " ").trim();

/** Single-answer questions only (Aiken has one right option); domains and explanations are not written (Aiken has neither). */
export function writeAiken(questions: BankQuestion[]): WrittenBank {
  const blocks: string[] = [];
  const left_out: WrittenBank["left_out"] = [];
  questions.forEach((question, index) => {
    if (question.type !== "single" || typeof question.correct !== "number") {
      left_out.push({ index, reason: "Aiken holds one right option per question; this question has several." });
      return;
    }
    const options = question.options.map((option, optionIndex) => `${LETTERS[optionIndex]}. ${oneLine(option)}`);
    blocks.push([oneLine(question.prompt), ...options, `ANSWER: ${LETTERS[question.correct]}`].join("\n"));
  });
  return { text: blocks.length ? `${blocks.join("\n\n")}\n` : "", left_out };
}
