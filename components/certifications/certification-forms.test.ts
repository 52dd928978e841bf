import { describe, expect, it } from "vitest";
import { domainNames, newCertificationSchema, questionSchema } from "./certification-forms";

describe("certification forms", () => {
  it("reads one domain a line and checks the body with the contract's schema", () => {
    expect(domainNames(" Accounts \n\nBilling\r\n")).toEqual(["Accounts", "Billing"]);
    const parsed = newCertificationSchema.safeParse({ name: "Acme", vendor: "", code: "", description: "", domainsText: "" });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.path.join("."))).toEqual(["vendor", "domains"]);
  });

  it("leaves out blank options at the end but not the correct one, and reports the rest at their index", () => {
    expect(questionSchema.parse({ prompt: "Q?", options: ["a", "b", "", ""], correct: 1, explanation: "" }).options).toEqual(["a", "b"]);
    const blank = questionSchema.safeParse({ prompt: "Q?", options: ["a", "b", "", ""], correct: 3, explanation: "" });
    expect(new Set(blank.error?.issues.map((issue) => issue.path.join(".")))).toEqual(new Set(["options.2", "options.3"]));
    expect(questionSchema.safeParse({ prompt: "Q?", options: ["a", "A"], correct: 0, explanation: "" }).error?.issues[0].path).toEqual(["options", 1]);
  });
});
