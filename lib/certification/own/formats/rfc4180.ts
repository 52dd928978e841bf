import { runAtOnce, type Steps } from "./slices";

/**
 * A small RFC 4180 reader: fields separated by commas, records by CRLF or LF (a lone CR is
 * accepted too); a field in double quotes may hold commas, line breaks and doubled quotes
 * (`""`). A byte-order mark at the start is ignored. A final line break does not start a
 * further record.
 */

export type CsvRecord = {
  fields: string[];
  /** 1-based line of the text where the record starts (records may span lines). */
  line: number;
};

export class CsvSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
    this.name = "CsvSyntaxError";
  }
}

/** The scan may pause every this many characters (see ./slices): well under a millisecond of work. */
const PAUSE_EVERY = 16 * 1024;
/** A line break as the reader counts them: CRLF, a lone CR or LF. */
const LINE_BREAK = /\r\n|\r|\n/g;
const UNQUOTED_RUN = /[^",\r\n]+/y;

export function parseCsv(text: string): CsvRecord[] {
  return runAtOnce(csvRecordSteps(text));
}

/** parseCsv as steps that pause every PAUSE_EVERY characters, for runInSlices. */
export function* csvRecordSteps(text: string): Steps<CsvRecord[]> {
  const input = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = "";
  let line = 1;
  let recordLine = 1;
  let i = 0;
  // True once anything (even an empty quoted field or a comma) belongs to the current record.
  let started = false;
  let atFieldStart = true;
  let nextPause = PAUSE_EVERY;

  const endField = () => {
    fields.push(field);
    field = "";
    atFieldStart = true;
  };
  const endRecord = () => {
    endField();
    records.push({ fields, line: recordLine });
    fields = [];
    started = false;
  };

  while (i < input.length) {
    if (i >= nextPause) {
      yield;
      nextPause = i + PAUSE_EVERY;
    }
    const c = input[i];
    if (c === '"' && atFieldStart) {
      // A quoted field: read up to the closing quote.
      started = true;
      const quoteLine = line;
      i += 1;
      // Up to each quote, the text is taken whole (a slice, not character by character: a
      // fraction of the time and of the garbage); a doubled quote is one quote of the text.
      for (;;) {
        const quote = input.indexOf('"', i);
        if (quote < 0) throw new CsvSyntaxError(`A quoted field opened on line ${quoteLine} is never closed.`, quoteLine);
        const part = input.slice(i, quote);
        line += part.match(LINE_BREAK)?.length ?? 0;
        field += part;
        if (input[quote + 1] === '"') {
          field += '"';
          i = quote + 2;
          if (i >= nextPause) {
            // A quoted field may be the whole file.
            yield;
            nextPause = i + PAUSE_EVERY;
          }
          continue;
        }
        i = quote + 1;
        break;
      }
      atFieldStart = false;
      const next = input[i];
      if (next !== undefined && next !== "," && next !== "\n" && next !== "\r") {
        throw new CsvSyntaxError(`Line ${line}: a closing quote must be followed by a comma or the end of the line.`, line);
      }
      continue;
    }
    if (c === ",") {
      started = true;
      endField();
      i += 1;
      continue;
    }
    if (c === "\r" || c === "\n") {
      i += c === "\r" && input[i + 1] === "\n" ? 2 : 1;
      if (started) endRecord();
      else records.push({ fields: [""], line: recordLine });
      line += 1;
      recordLine = line;
      continue;
    }
    if (c === '"') throw new CsvSyntaxError(`Line ${line}: a quote inside an unquoted field; put the whole field in quotes and double the quote.`, line);
    started = true;
    atFieldStart = false;
    // The rest of the unquoted text up to a comma, a line break or a quote.
    UNQUOTED_RUN.lastIndex = i;
    UNQUOTED_RUN.exec(input);
    field += input.slice(i, UNQUOTED_RUN.lastIndex);
    i = UNQUOTED_RUN.lastIndex;
  }
  if (started) endRecord();
  return records;
}

/** True for a record with no content at all (a blank line). */
export function isBlankRecord(record: CsvRecord): boolean {
  return record.fields.every((field) => field.trim() === "");
}
