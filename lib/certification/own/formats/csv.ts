import { csvRecordSteps, CsvSyntaxError, isBlankRecord, type CsvRecord } from "./rfc4180";
import type { Steps } from "./slices";
import { FormatSyntaxError, type BankQuestion, type ParsedItem, type WrittenBank } from "./types";

/**
 * Our own CSV layout: header `domain,question,option_a,…,correct,explanation` with 2 to 8
 * option columns (option_a to option_h; the four of the first version stay valid), one question
 * per row. `correct` is a letter (A–H) or a number (1–8); several joined by ";" make a
 * multiple-response question (A;C). An empty domain is a question with no domain.
 */

const LETTERS = "ABCDEFGH";
const MIN_OPTION_COLUMNS = 2;
const MAX_OPTION_COLUMNS = 8;
/** Today's export has four option columns; a narrower bank is still written with four, for spreadsheets made from it. */
const WRITTEN_MIN_OPTION_COLUMNS = 4;

const optionColumn = (index: number) => `option_${LETTERS[index].toLowerCase()}`;
const headerOf = (optionCount: number) => ["domain", "question", ...Array.from({ length: optionCount }, (_, index) => optionColumn(index)), "correct", "explanation"];

const HEADER_HELP = "domain,question,option_a,option_b,…,correct,explanation (2 to 8 option columns, option_a to option_h)";

/** The number of option columns of a header row, or undefined when it is not our header. */
function optionColumnsOf(header: string[]): number | undefined {
  const names = header.map((name) => name.trim().toLowerCase());
  const count = names.length - 4;
  if (count < MIN_OPTION_COLUMNS || count > MAX_OPTION_COLUMNS) return undefined;
  return headerOf(count).every((name, index) => names[index] === name) ? count : undefined;
}

/** Characters that make a spreadsheet run a cell as a formula; such a cell is written after an apostrophe. */
const FORMULA_START = /^'*[=+\-@\t\r]/;
/** The apostrophe the writer put before a formula-like cell is taken off again (one, so a value that began with one keeps it). */
const cellValue = (field: string) => {
  const text = field.trim();
  return text.startsWith("'") && FORMULA_START.test(text.slice(1)) ? text.slice(1) : text;
};

/** One option of the correct column: a letter A–H or a number 1–8, as an index; undefined otherwise. */
function optionIndexOf(value: string): number | undefined {
  const text = value.trim().toUpperCase();
  if (/^[A-H]$/.test(text)) return text.charCodeAt(0) - 65;
  if (/^[1-8]$/.test(text)) return Number(text) - 1;
  return undefined;
}

function rowOf(record: CsvRecord, optionColumns: number): BankQuestion | string {
  const width = optionColumns + 4;
  if (record.fields.length !== width) {
    return `This row has ${record.fields.length} column${record.fields.length === 1 ? "" : "s"}; the header has ${width}. Put text with commas in double quotes.`;
  }
  const cells = record.fields.map(cellValue);
  const [domain, prompt] = cells;
  const optionCells = cells.slice(2, 2 + optionColumns);
  const [correctCell, explanation] = cells.slice(2 + optionColumns);
  const used = optionCells.reduce((last, cell, index) => (cell ? index + 1 : last), 0);
  const gap = optionCells.slice(0, used).findIndex((cell) => !cell);
  if (gap >= 0) return `Option ${LETTERS[gap]} is empty but a later option is not; fill the options in order from A.`;
  const parts = correctCell.split(";").map(optionIndexOf);
  if (parts.some((part) => part === undefined)) {
    return `The correct column must be a letter A to H or a number 1 to 8, or several joined by ";" (A;C); found "${correctCell}".`;
  }
  const indexes = parts as number[];
  const missing = indexes.find((index) => index >= used);
  if (missing !== undefined) return `The correct column names option ${LETTERS[missing]}, which is empty.`;
  return {
    domain: domain || null,
    prompt,
    options: optionCells.slice(0, used),
    type: indexes.length === 1 ? "single" : "multiple",
    correct: indexes.length === 1 ? indexes[0] : indexes,
    explanation,
  };
}

/** The rows of the file, pausing every few KB of the scan and between rows (see ./slices). */
export function* readCsv(text: string): Steps<ParsedItem[]> {
  let records: CsvRecord[];
  try {
    records = yield* csvRecordSteps(text);
  } catch (error) {
    if (error instanceof CsvSyntaxError) throw new FormatSyntaxError(error.message, error.line);
    throw error;
  }
  const headerIndex = records.findIndex((record) => !isBlankRecord(record));
  if (headerIndex < 0) throw new FormatSyntaxError("The file is empty.", 1);
  const header = records[headerIndex];
  const optionColumns = optionColumnsOf(header.fields);
  if (optionColumns === undefined) throw new FormatSyntaxError(`Line ${header.line}: the first row must be the header: ${HEADER_HELP}.`, header.line);
  const items: ParsedItem[] = [];
  for (const record of records.slice(headerIndex + 1)) {
    yield;
    if (isBlankRecord(record)) continue;
    const row = rowOf(record, optionColumns);
    items.push(typeof row === "string" ? { line: record.line, reason: row } : { line: record.line, question: row });
  }
  return items;
}

/** One CSV field: quoted when it holds a comma, quote or line break; a formula-like text after an apostrophe. */
function csvField(value: string): string {
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const correctCell = (question: BankQuestion) =>
  (typeof question.correct === "number" ? [question.correct] : question.correct).map((index) => LETTERS[index]).join(";");

/** Lines end with CRLF (RFC 4180); as many option columns as the widest question needs, at least four. */
export function writeCsv(questions: BankQuestion[]): WrittenBank {
  const optionColumns = Math.max(WRITTEN_MIN_OPTION_COLUMNS, ...questions.map((question) => question.options.length));
  const rows = questions.map((question) => {
    const options = Array.from({ length: optionColumns }, (_, index) => question.options[index] ?? "");
    return [question.domain ?? "", question.prompt, ...options, correctCell(question), question.explanation].map(csvField).join(",");
  });
  return { text: [headerOf(optionColumns).join(","), ...rows].map((line) => `${line}\r\n`).join(""), left_out: [] };
}
