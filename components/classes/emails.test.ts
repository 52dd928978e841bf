import { describe, expect, it } from "vitest";
import { parseEmails } from "./emails";

describe("parseEmails", () => {
  it("splits on lines, commas, semicolons and spaces; lower-cases; keeps each address once", () => {
    expect(parseEmails("Ann@Example.com\n bob@example.com, carl@example.com;dana@example.com\r\n\n<eve@example.com>  ann@example.com")).toEqual([
      "ann@example.com",
      "bob@example.com",
      "carl@example.com",
      "dana@example.com",
      "eve@example.com",
    ]);
    expect(parseEmails("  \n , ")).toEqual([]);
  });
});
