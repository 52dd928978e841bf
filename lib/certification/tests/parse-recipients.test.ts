import { describe, expect, it } from "vitest";
import { parseRecipients } from "./parse-recipients";

describe("parseRecipients", () => {
  it("reads one address per line, lower-cased, without names", () => {
    expect(parseRecipients("Ada@Example.com\n\n  bob@example.com  \r\n")).toEqual({
      recipients: [
        { email: "ada@example.com", name: "" },
        { email: "bob@example.com", name: "" },
      ],
      invalid: [],
      duplicates: [],
    });
  });

  it("splits on commas, semicolons and tabs", () => {
    const result = parseRecipients("a@example.com, b@example.com; c@example.com\td@example.com");
    expect(result.recipients.map((r) => r.email)).toEqual(["a@example.com", "b@example.com", "c@example.com", "d@example.com"]);
  });

  it('reads "Name <email>", quoted names with commas included', () => {
    const result = parseRecipients('Ada Lovelace <ada@example.com>, "Doe, Jane" <jane@example.com>\n<bob@example.com>');
    expect(result.recipients).toEqual([
      { email: "ada@example.com", name: "Ada Lovelace" },
      { email: "jane@example.com", name: "Doe, Jane" },
      { email: "bob@example.com", name: "" },
    ]);
    expect(result.invalid).toEqual([]);
  });

  it('reads "email, name" (a spreadsheet paste too)', () => {
    const result = parseRecipients("ada@example.com, Ada Lovelace\nbob@example.com\tBob\ncy@example.com, Cy, dee@example.com, Dee");
    expect(result.recipients).toEqual([
      { email: "ada@example.com", name: "Ada Lovelace" },
      { email: "bob@example.com", name: "Bob" },
      { email: "cy@example.com", name: "Cy" },
      { email: "dee@example.com", name: "Dee" },
    ]);
  });

  it("flags lines that are not addresses, with their line numbers", () => {
    const result = parseRecipients("ada@example.com\nnot an address\nbob@example\nJane <jane@@example.com>\nada@example.com, Ada, extra");
    expect(result.recipients.map((r) => r.email)).toEqual(["ada@example.com"]);
    expect(result.invalid).toEqual([
      { line: 2, text: "not an address", message: "No e-mail address." },
      { line: 3, text: "bob@example", message: "Not a valid e-mail address." },
      { line: 4, text: "Jane <jane@@example.com>", message: "Not a valid e-mail address." },
      { line: 5, text: "extra", message: "No e-mail address." },
    ]);
  });

  it("keeps the first of repeated addresses and reports the others", () => {
    const result = parseRecipients("ada@example.com\nAda <ADA@example.com>");
    expect(result.recipients).toEqual([{ email: "ada@example.com", name: "" }]);
    expect(result.duplicates).toEqual([{ line: 2, text: "Ada <ADA@example.com>", message: "ada@example.com is already on line 1." }]);
  });

  it("does not let an unclosed quote swallow the next lines", () => {
    const result = parseRecipients('"Ada <ada@example.com>\nbob@example.com');
    expect(result.recipients.map((r) => r.email)).toContain("bob@example.com");
  });

  it("returns nothing for blank input", () => {
    expect(parseRecipients(" \n , ; ")).toEqual({ recipients: [], invalid: [], duplicates: [] });
  });
});
