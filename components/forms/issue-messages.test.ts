import { describe, expect, it } from "vitest";
import { z } from "zod";
import { fieldMessage } from "./field-labels";
import { formErrorMap } from "./issue-messages";
import { toCheckedBody } from "./checked-by";
import { createClassInput } from "@/lib/certification/classes/schemas";
import { createTestInput } from "@/lib/certification/tests/schemas";

/** The messages a person reads for a body, as a form shows them (`formErrorMap`, then `fieldMessage`). */
const shown = (schema: z.ZodType, body: unknown) => {
  const parsed = schema.safeParse(body, { error: formErrorMap });
  expect(parsed.success).toBe(false);
  return Object.fromEntries(parsed.error!.issues.map((issue) => [issue.path.join("."), fieldMessage(issue.message)]));
};

describe("messages in the form's words (issue 26)", () => {
  it("puts zod's own messages (a check without a message of its own) in sentences, from the issue's code", () => {
    const schema = z.object({
      name: z.string().min(1),
      code: z.string().max(3),
      url: z.url(),
      email: z.email(),
      count: z.number().int().min(2),
      size: z.number().max(10),
      tags: z.array(z.string()).min(1),
      kind: z.enum(["a", "b"]),
      missing: z.string(),
    });
    expect(shown(schema, { name: "", code: "abcd", url: "nope", email: "nope", count: 1, size: 11, tags: [], kind: "c" })).toEqual({
      name: "Fill this in.",
      code: "Use at most 3 characters.",
      url: "Enter a web address starting with https://.",
      email: "Enter an e-mail address, such as ada@example.com.",
      count: "Enter 2 or more.",
      size: "Enter 10 or less.",
      tags: "Choose or add at least one.",
      kind: "Choose one of the options offered.",
      missing: "Fill this in.",
    });
    expect(shown(z.object({ n: z.number().int() }), { n: 1.5 })).toEqual({ n: "Enter a whole number." });
    expect(shown(z.object({ n: z.number() }), { n: Number.NaN })).toEqual({ n: "Fill this in." });
  });

  it("keeps the contract's own sentences, without “null” or ISO 8601 in them", () => {
    const messages = shown(createTestInput, {
      certification_id: Number.NaN,
      domains: [1],
      questions: 1,
      recipients: [{ email: "ada@example.com" }],
      time_limit_minutes: 1.5,
      reminder_after_hours: Number.NaN,
      pass_mark: "x",
      opens_at: "",
      closes_at: "2026-12-01T18:00",
    });
    expect(messages).toEqual({
      certification_id: "Choose a certification.",
      time_limit_minutes: "Give a whole number of minutes (1–600), or leave it blank.",
      reminder_after_hours: "Give a whole number of hours (1–720), or leave it blank.",
      pass_mark: "Give a percent (0–100), or leave it blank.",
      opens_at: "Enter a date and time.",
      closes_at: "Enter a date and time.",
    });
    for (const message of Object.values(messages)) expect(message).not.toMatch(/null|ISO|expected|>=|_/);
  });

  it("puts a server's 422 messages (words only, no codes) in the form's words too", () => {
    expect(fieldMessage("Must be an ISO 8601 date-time with an offset, e.g. 2026-12-01T18:00:00Z.")).toBe("Enter a date and time.");
    expect(fieldMessage("starts_at must be an ISO 8601 date-time with an offset, e.g. 2026-12-01T18:00:00Z.")).toBe("Enter a date and time.");
    expect(fieldMessage("Give a whole number of minutes (1–600), or null.")).toBe("Give a whole number of minutes (1–600), or leave it blank.");
    expect(fieldMessage("Too small: expected string to have >=1 characters")).toBe("Fill this in.");
    expect(fieldMessage("Too big: expected string to have <=200 characters")).toBe("Use at most 200 characters.");
    expect(fieldMessage("Too small: expected array to have >=1 items")).toBe("Choose or add at least one.");
    expect(fieldMessage("Invalid input: expected string, received undefined")).toBe("Fill this in.");
    // A sentence already in words is left as it is.
    expect(fieldMessage("Choose a certification.")).toBe("Choose a certification.");
  });

  it("reports the form's own problems and the contract's on one pass, one message per field", () => {
    const form = z.object({ name: z.string(), certification_id: z.string() }).transform(
      toCheckedBody(createClassInput, (values) => ({ name: values.name, certification_id: Number(values.certification_id) }), {
        own: (values) => (values.certification_id ? [] : [{ path: ["certification_id"], message: "Choose a certification." }]),
      }),
    );
    const parsed = form.safeParse({ name: "", certification_id: "" });
    expect(parsed.error!.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`)).toEqual(["name: Give the class a name.", "certification_id: Choose a certification."]);
  });
});
