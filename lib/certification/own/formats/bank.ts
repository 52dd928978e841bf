// The list of formats, media types and extensions live in ./types (a leaf: schemas.ts and
// contracts.ts import them from there, since this file imports questionRules from schemas.ts);
// they are re-exported here for callers of readBank and writeBank.
import { bankFileExtensions, bankFormats, bankMediaTypes, FormatSyntaxError, type BankFormat } from "./types";
import type { BankQuestion, ParsedItem, ReadBank, ReadItem, SkippedItem, WrittenBank } from "./types";
import type { z } from "zod";
import { questionRules } from "@/lib/certification/catalog/question-type";
import { readAiken, writeAiken } from "./aiken";
import { readCsv, writeCsv } from "./csv";
import { readGift, writeGift } from "./gift";
import { readMoodleXml, writeMoodleXml } from "./moodle-xml";
import { runInSlices, type Steps } from "./slices";

/**
 * Question banks in and out of a certification: our CSV, Moodle's GIFT and Moodle XML, and
 * Aiken. Reading never stores anything; every question read is checked against the editor's
 * own rules (questionRules), and what fails is skipped with the reason, not refused as a whole.
 * Reading a large file takes a second of CPU: it runs in slices that give the event loop back
 * (./slices), so a server reading one goes on answering its other requests.
 */

export { bankFileExtensions, bankFormats, bankMediaTypes, FormatSyntaxError };
export type { BankFormat, BankQuestion, ReadBank, ReadItem, SkippedItem };

/** At most this many questions are imported from one file; the rest are skipped. */
export const MAX_BANK_QUESTIONS = 2000;
const MAX_DOMAIN_NAME = 200;

const readers: Record<BankFormat, (text: string) => Steps<ParsedItem[]>> = { csv: readCsv, gift: readGift, moodle_xml: readMoodleXml, aiken: readAiken };
const writers: Record<BankFormat, (questions: BankQuestion[]) => WrittenBank> = {
  csv: writeCsv,
  gift: writeGift,
  moodle_xml: writeMoodleXml,
  aiken: writeAiken,
};

const LETTERS = "ABCDEFGH";

/** A zod issue of questionRules as words: which part of the question, then what is wrong with it. */
function issueText(issue: z.core.$ZodIssue): string {
  const [field, index] = issue.path;
  const part =
    field === "prompt"
      ? "The question"
      : field === "options" && typeof index === "number"
        ? `Option ${LETTERS[index] ?? index + 1}`
        : field === "options"
          ? "The options"
          : field === "explanation"
            ? "The explanation"
            : undefined;
  return part ? `${part}: ${issue.message}` : issue.message;
}

/** The question as our rules keep it (texts trimmed), or the reason it cannot be imported. */
function checkedQuestion(question: BankQuestion): BankQuestion | string {
  const domain = question.domain?.trim() || null;
  if (domain !== null && domain.length > MAX_DOMAIN_NAME) return `The domain name is longer than ${MAX_DOMAIN_NAME} characters.`;
  const result = questionRules.safeParse({
    prompt: question.prompt,
    options: question.options,
    type: question.type,
    correct: question.correct,
    explanation: question.explanation,
  });
  if (!result.success) return [...new Set(result.error.issues.map(issueText))].join(" ");
  const { prompt, options, type, correct, explanation } = result.data;
  return { domain, prompt, options, type, correct, explanation };
}

/** Why a question cannot be imported (our rules: questionRules, and the domain name), or undefined when it can. */
export function checkQuestion(question: BankQuestion): string | undefined {
  const checked = checkedQuestion(question);
  return typeof checked === "string" ? checked : undefined;
}

/**
 * The questions of a file, checked: those that break our rules are skipped with the reason, and
 * so is everything after the first MAX_BANK_QUESTIONS. Rejects with FormatSyntaxError when the
 * file cannot be read as the format at all, or holds no question. Never holds the event loop
 * for much more than a slice (./slices).
 */
export function readBank(format: BankFormat, text: string): Promise<ReadBank> {
  return runInSlices(bankSteps(format, text));
}

function* bankSteps(format: BankFormat, text: string): Steps<ReadBank> {
  const items = yield* readers[format](text);
  if (items.length === 0) throw new FormatSyntaxError("The file has no questions.", 1);
  const bank: ReadBank = { questions: [], skipped: [] };
  for (const [index, item] of items.entries()) {
    yield;
    if (bank.questions.length >= MAX_BANK_QUESTIONS) {
      // One entry for all the rest, not one per item (a 4 MB file can hold a hundred thousand).
      const rest = items.length - index;
      const reason = `At most ${MAX_BANK_QUESTIONS} questions per import: this item and the ${rest - 1} after it were not read. Import them from a second file.`;
      bank.skipped.push({ line: item.line, name: item.name, reason });
      break;
    }
    if (!("question" in item)) {
      bank.skipped.push(item);
      continue;
    }
    const { line, name } = item;
    const checked = checkedQuestion(item.question);
    if (typeof checked === "string") bank.skipped.push({ line, name, reason: checked });
    else bank.questions.push({ line, name, question: checked });
  }
  return bank;
}

/** A bank as a file of the format; `left_out` names the questions (by index) the format cannot hold, and why. */
export function writeBank(format: BankFormat, questions: BankQuestion[]): WrittenBank {
  return writers[format](questions);
}
