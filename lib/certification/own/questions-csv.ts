import type { QuestionType } from "@/db/schema";
import { invalidFields, type FieldError } from "@/lib/kernel/errors";
import { correctProblems, lettersOf, type Correct } from "@/lib/certification/catalog/question-type";
import { CsvSyntaxError, isBlankRecord, parseCsv } from "./csv";
import { csvColumns, MAX_CSV_ROWS, type CsvColumn } from "./schemas";

export type CsvRow = { domain: string; prompt: string; options: string[]; type: QuestionType; correct: Correct; explanation: string };

/** One option of the correct column: a letter A–D or a number 1–4; the index, or undefined. */
function optionOf(value: string): number | undefined {
  const text = value.trim().toUpperCase();
  if (/^[A-D]$/.test(text)) return text.charCodeAt(0) - 65;
  if (/^[1-4]$/.test(text)) return Number(text) - 1;
  return undefined;
}

/**
 * The correct column: one option (`B`: a single-answer question) or two or more separated by
 * `;` (`A;C`: a multiple-response question, choose that many). Undefined when a part is not an
 * option letter or number.
 */
export function readCorrect(value: string): { type: QuestionType; correct: Correct } | undefined {
  const parts = value.split(";").map(optionOf);
  if (parts.some((part) => part === undefined)) return undefined;
  const indexes = parts as number[];
  return indexes.length === 1 ? { type: "single", correct: indexes[0] } : { type: "multiple", correct: indexes };
}

/** The correct column as an export writes it, the form an import reads: `B`, or `A;C`. */
export const correctColumn = (question: { type: QuestionType; correct: Correct }) =>
  lettersOf(typeof question.correct === "number" ? [question.correct] : question.correct);

/**
 * Reads the CSV of an import: header `domain,question,option_a,option_b,option_c,option_d,correct,explanation`
 * (in this order, any case), then one question per row. Every bad row is
 * reported, as `rows.<n>.<column>` with n counting data rows from 1 (the header is not a row);
 * the whole file is refused when anything is wrong.
 */
export function readQuestionsCsv(csvText: string): CsvRow[] {
  let records;
  try {
    records = parseCsv(csvText);
  } catch (error) {
    if (error instanceof CsvSyntaxError) throw invalidFields([{ field: "csv", message: error.message }], "The CSV could not be read.");
    throw error;
  }
  const headerIndex = records.findIndex((record) => !isBlankRecord(record));
  if (headerIndex < 0) throw invalidFields([{ field: "csv", message: "The file is empty." }], "The CSV could not be read.");
  const header = records[headerIndex].fields.map((name) => name.trim().toLowerCase());
  if (header.length !== csvColumns.length || csvColumns.some((column, index) => header[index] !== column)) {
    throw invalidFields(
      [{ field: "csv", message: `The first row must be the header: ${csvColumns.join(",")}` }],
      "The CSV could not be read.",
    );
  }
  const dataRows = records.slice(headerIndex + 1);
  const fields: FieldError[] = [];
  const rows: CsvRow[] = [];
  let n = 0;
  for (const record of dataRows) {
    if (isBlankRecord(record)) continue;
    n += 1;
    if (n > MAX_CSV_ROWS) {
      fields.push({ field: "csv", message: `At most ${MAX_CSV_ROWS} questions per import.` });
      break;
    }
    const rowErrors: FieldError[] = [];
    const error = (column: CsvColumn | null, message: string) =>
      rowErrors.push({ field: column ? `rows.${n}.${column}` : `rows.${n}`, message: `Row ${n} (line ${record.line}): ${message}` });
    if (record.fields.length !== csvColumns.length) {
      error(null, `has ${record.fields.length} column${record.fields.length === 1 ? "" : "s"}; expected ${csvColumns.length}.`);
      fields.push(...rowErrors);
      continue;
    }
    const value = Object.fromEntries(csvColumns.map((column, index) => [column, record.fields[index].trim()])) as Record<CsvColumn, string>;
    if (!value.domain) error("domain", "the domain is empty.");
    else if (value.domain.length > 200) error("domain", "the domain name is longer than 200 characters.");
    if (!value.question) error("question", "the question is empty.");
    else if (value.question.length > 2000) error("question", "the question is longer than 2000 characters.");
    if (!value.option_a) error("option_a", "option A is empty.");
    if (!value.option_b) error("option_b", "option B is empty.");
    if (!value.option_c && value.option_d) error("option_c", "option C is empty but option D is not; fill C first.");
    const letters = ["option_a", "option_b", "option_c", "option_d"] as const;
    for (const column of letters) {
      if (value[column].length > 500) error(column, `option ${column.slice(-1).toUpperCase()} is longer than 500 characters.`);
    }
    const present = letters.filter((column) => value[column]);
    const seen = new Map<string, string>();
    for (const column of present) {
      const key = value[column].toLowerCase();
      if (seen.has(key)) error(column, `option ${column.slice(-1).toUpperCase()} is the same as option ${seen.get(key)}.`);
      else seen.set(key, column.slice(-1).toUpperCase());
    }
    const key = readCorrect(value.correct);
    if (!key) error("correct", `correct must be A, B, C or D (or 1 to 4), or two or more of them separated by ";" (A;C); found "${value.correct}".`);
    else {
      const indexes = typeof key.correct === "number" ? [key.correct] : key.correct;
      const empty = indexes.find((index) => !value[letters[index]]);
      if (empty !== undefined) error("correct", `the correct answer names option ${"ABCD"[empty]}, which is empty.`);
      else for (const message of correctProblems(key.type, key.correct, present.length)) error("correct", message);
    }
    if (value.explanation.length > 2000) error("explanation", "the explanation is longer than 2000 characters.");
    if (rowErrors.length) {
      fields.push(...rowErrors);
      continue;
    }
    rows.push({
      domain: value.domain,
      prompt: value.question,
      options: present.map((column) => value[column]),
      type: key!.type,
      correct: key!.correct,
      explanation: value.explanation,
    });
  }
  if (fields.length) throw invalidFields(fields, "Some rows must be corrected; nothing was imported.");
  if (!rows.length) throw invalidFields([{ field: "csv", message: "The file has a header but no questions." }], "The CSV could not be read.");
  return rows;
}
