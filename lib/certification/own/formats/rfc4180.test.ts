import { describe, expect, it } from "vitest";
import { CsvSyntaxError, parseCsv } from "./rfc4180";

const fieldsOf = (text: string) => parseCsv(text).map((record) => record.fields);

describe("parseCsv (RFC 4180)", () => {
  it("splits on commas and line breaks (LF, CRLF, CR)", () => {
    expect(fieldsOf("a,b,c\n1,2,3")).toEqual([
      ["a", "b", "c"],
      ["1", "2", "3"],
    ]);
    expect(fieldsOf("a,b\r\n1,2\r\n")).toEqual([
      ["a", "b"],
      ["1", "2"],
    ]);
    expect(fieldsOf("a\r1")).toEqual([["a"], ["1"]]);
  });

  it("keeps empty fields, including trailing ones", () => {
    expect(fieldsOf("a,,c,\n,,,")).toEqual([
      ["a", "", "c", ""],
      ["", "", "", ""],
    ]);
  });

  it("reads quoted fields holding commas, doubled quotes and line breaks", () => {
    const records = parseCsv('x,"a, b","say ""hi""","two\r\nlines",""\nnext,1,2,3,4');
    expect(records.map((r) => r.fields)).toEqual([
      ["x", "a, b", 'say "hi"', "two\r\nlines", ""],
      ["next", "1", "2", "3", "4"],
    ]);
    expect(records.map((r) => r.line)).toEqual([1, 3]);
  });

  it("ignores a byte-order mark and a final line break, and reports blank lines as blank records", () => {
    const records = parseCsv("\uFEFFh1,h2\n\nv1,v2\n");
    expect(records.map((r) => r.fields)).toEqual([["h1", "h2"], [""], ["v1", "v2"]]);
    expect(records.map((r) => r.line)).toEqual([1, 2, 3]);
  });

  it("refuses an unclosed quote and a quote inside an unquoted field, with the line", () => {
    expect(() => parseCsv('a,b\n"open,c')).toThrow(CsvSyntaxError);
    expect(() => parseCsv('a,b\n"open,c')).toThrow(/line 2/);
    expect(() => parseCsv('a,b"c')).toThrow(/Line 1/);
    expect(() => parseCsv('"a"b,c')).toThrow(/closing quote/);
  });

  it("gives nothing for empty text", () => {
    expect(parseCsv("")).toEqual([]);
  });
});
