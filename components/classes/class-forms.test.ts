import { describe, expect, it } from "vitest";
import { inviteStudentsSchema, newClassSchema } from "./class-forms";

describe("the class forms", () => {
  it("send each student as { email, name }, read as test recipients are", () => {
    const parsed = newClassSchema.safeParse({
      name: "Evening",
      certification_id: "3",
      emailsText: 'Ada Lovelace <Ada@Example.com>\ngrace@example.com, Grace Hopper; alan@example.com\n"Doe, Jane" <jane@example.com>\nada@example.com',
    });
    expect(parsed.success && parsed.data).toEqual({
      name: "Evening",
      certification_id: 3,
      emails: [
        { email: "ada@example.com", name: "Ada Lovelace" },
        { email: "grace@example.com", name: "Grace Hopper" },
        { email: "alan@example.com", name: "" },
        { email: "jane@example.com", name: "Doe, Jane" },
      ],
    });
  });

  it("refuse a text with pieces that are not addresses, under emails", () => {
    const parsed = inviteStudentsSchema.safeParse({ emailsText: "ok@example.com\nBob <not-an-address>" });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([["emails", "Fix or remove the entries that are not addresses."]]);
    expect(inviteStudentsSchema.safeParse({ emailsText: "  " }).error!.issues.map((issue) => issue.path.join("."))).toEqual(["emails"]);
  });

  it("list every field's problem on the first submit: the name with the certification and the addresses (issue 26)", () => {
    const parsed = newClassSchema.safeParse({ name: "", certification_id: "", emailsText: "Bob <not-an-address>" });
    expect(parsed.error!.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
      ["name", "Give the class a name."],
      ["certification_id", "Choose a certification."],
      ["emails", "Fix or remove the entries that are not addresses."],
    ]);
  });
});
