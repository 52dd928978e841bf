import { describe, expect, it } from "vitest";
import { fieldLabel, fieldMessage } from "./field-labels";

describe("fieldLabel", () => {
  it("labels top-level fields in words", () => {
    expect(fieldLabel("url")).toBe("Address");
    expect(fieldLabel("certification_id")).toBe("Certification");
    expect(fieldLabel("ends_at")).toBe("End");
    expect(fieldLabel("code")).toBe("Exam code");
    expect(fieldLabel("duration_minutes")).toBe("Duration (minutes)");
    expect(fieldLabel("some_new_field")).toBe("Some new field");
    expect(fieldLabel("(body)")).toBe("Form");
  });

  it("labels items of lists by their position, and by the name the form gives them", () => {
    expect(fieldLabel("recipients.2.email")).toBe("Recipient 3, e-mail address");
    expect(fieldLabel("recipients.0", (list, i) => (list === "recipients" ? ["ada@example.com"][i] : undefined))).toBe("Recipient 1 (ada@example.com)");
    expect(fieldLabel("options.1")).toBe("Option B");
    expect(fieldLabel("hints.1.cost")).toBe("Hint 2, cost");
    expect(fieldLabel("questions_per_domain.1.questions")).toBe("Domain 2, questions");
    expect(fieldLabel("emails.3")).toBe("E-mail 4");
  });

  it("names the address of an emails.<n> error, and the domain of a domains.<n> one", () => {
    const emails = ["a@x.io", "b@x.io"];
    const itemName = (list: string, i: number) => (list === "emails" ? emails[i] : list === "domains" ? ["Billing"][i] : undefined);
    expect(fieldLabel("emails.1", itemName)).toBe("E-mail 2 (b@x.io)");
    expect(fieldLabel("emails.5", itemName)).toBe("E-mail 6");
    expect(fieldLabel("domains.0", itemName)).toBe("Domain 1 (Billing)");
  });

  it("numbers CSV rows as the file's lines are numbered", () => {
    expect(fieldLabel("rows.5.prompt")).toBe("Row 5, question");
    expect(fieldLabel("rows.7")).toBe("Row 7");
  });

  it("puts the API's messages in the form's words: no field key is left in them", () => {
    expect(fieldMessage("url must be an absolute http:// or https:// URL.")).toBe("Enter a full web address starting with https:// (or http://).");
    expect(fieldMessage("ends_at must be after starts_at.")).toBe("Must be after “Start”.");
    expect(fieldMessage("Must be after opens_at.")).toBe("Must be after “Opens”.");
    expect(fieldMessage("secret must be 16 to 128 characters.")).toBe("Must be 16 to 128 characters.");
    expect(fieldMessage("after_close needs closes_at: set when the test closes, or choose after_submit or never.")).toBe(
      "“After the test closes” needs “Closes”: set when the test closes, or choose “After they submit” or never.",
    );
    expect(fieldMessage("Give either duration_minutes or ends_at.")).toBe("Give either “Duration (minutes)” or “End”.");
    // What is not a field key stays as written, and a message already in words is unchanged.
    expect(fieldMessage("Enter a valid e-mail address (found \"ada_at_example\").")).toBe("Enter a valid e-mail address (found \"ada_at_example\").");
    expect(fieldMessage("website must be filled in.")).toBe("website must be filled in.");
    expect(fieldMessage(fieldMessage("ends_at must be after starts_at."))).toBe("Must be after “Start”.");
  });
});
