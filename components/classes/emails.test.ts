import { describe, expect, it } from "vitest";
import { classFieldLabel, parseEmails } from "./emails";

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

describe("classFieldLabel", () => {
  it("names the address of an emails.<n> error", () => {
    expect(classFieldLabel("emails.1", ["a@x.io", "b@x.io"])).toBe("E-mail 2 (b@x.io)");
    expect(classFieldLabel("emails.5", [])).toBe("E-mail 6");
    expect(classFieldLabel("certification_id", [])).toBe("Certification");
  });
});
