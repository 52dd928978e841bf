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

export function parseCsv(text: string): CsvRecord[] {
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
    const c = input[i];
    if (c === '"' && atFieldStart) {
      // A quoted field: read up to the closing quote.
      started = true;
      const quoteLine = line;
      i += 1;
      for (;;) {
        if (i >= input.length) throw new CsvSyntaxError(`A quoted field opened on line ${quoteLine} is never closed.`, quoteLine);
        const q = input[i];
        if (q === '"') {
          if (input[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i += 1;
          break;
        }
        if (q === "\n" || (q === "\r" && input[i + 1] !== "\n")) line += 1;
        field += q;
        i += 1;
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
    field += c;
    i += 1;
  }
  if (started) endRecord();
  return records;
}

/** True for a record with no content at all (a blank line). */
export function isBlankRecord(record: CsvRecord): boolean {
  return record.fields.every((field) => field.trim() === "");
}
