import { describe, expect, it } from "vitest";
import { fieldLabel } from "./field-labels";

describe("fieldLabel", () => {
  it("labels top-level fields in words", () => {
    expect(fieldLabel("url")).toBe("Address");
    expect(fieldLabel("certification_id")).toBe("Certification");
    expect(fieldLabel("some_new_field")).toBe("Some new field");
    expect(fieldLabel("(body)")).toBe("Form");
  });

  it("labels items of lists by their position, or by the name the form gives them", () => {
    expect(fieldLabel("recipients.2.email")).toBe("Recipient 3, e-mail");
    expect(fieldLabel("recipients.0", (list, i) => (list === "recipients" ? ["ada@example.com"][i] : undefined))).toBe("ada@example.com");
    expect(fieldLabel("options.1")).toBe("Option B");
    expect(fieldLabel("hints.0.cost")).toBe("Hint 1, cost");
    expect(fieldLabel("questions_per_domain.1.questions")).toBe("Domain 2, questions");
    expect(fieldLabel("emails.3")).toBe("E-mail 4");
  });

  it("numbers CSV rows as the file's lines are numbered", () => {
    expect(fieldLabel("rows.5.prompt")).toBe("Row 5, question");
  });
});
