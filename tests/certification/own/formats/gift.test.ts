import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { FormatSyntaxError, readBank, writeBank, type ReadBank } from "@/lib/certification/own/formats/bank";

const fixture = (name: string) => readFileSync(new URL(`../../../fixtures/formats/${name}`, import.meta.url), "utf8");

const catchSyntax = async (text: string) => {
  try {
    await readBank("gift", text);
  } catch (error) {
    if (error instanceof FormatSyntaxError) return error;
    throw error;
  }
  throw new Error("no FormatSyntaxError");
};

describe("GIFT: the examples of Moodle's documentation", () => {
  let bank: ReadBank;
  beforeAll(async () => {
    bank = await readBank("gift", fixture("moodle-docs.gift"));
  });

  it("imports the multiple-choice, multiple-answer and true/false questions with their categories and feedback", () => {
    expect(bank.questions).toEqual([
      {
        line: 6,
        name: "Grants tomb",
        question: {
          domain: "Grant's tomb",
          prompt: "Who is buried in Grant's tomb in New York City?",
          options: ["Grant", "No one", "Napoleon", "Churchill", "Mother Teresa"],
          type: "single",
          correct: 0,
          explanation: "",
        },
      },
      {
        line: 18,
        question: { domain: "Grant's tomb", prompt: "Who's buried in Grant's tomb?", options: ["Grant", "Jefferson", "no one"], type: "single", correct: 2, explanation: "" },
      },
      {
        line: 22,
        question: {
          domain: "Grant's tomb",
          prompt: "Japanese characters originally came from what country?",
          options: ["India", "China", "Korea", "Egypt"],
          type: "single",
          correct: 1,
          explanation: "",
        },
      },
      {
        line: 28,
        question: {
          domain: "Grant's tomb",
          prompt: "What two people are entombed in Grant's tomb?",
          options: ["No one", "Grant", "Grant's wife", "Grant's father"],
          type: "multiple",
          correct: [1, 2],
          explanation: "",
        },
      },
      { line: 35, question: { domain: "Grant's tomb", prompt: "Grant is buried in Grant's tomb.", options: ["True", "False"], type: "single", correct: 1, explanation: "" } },
      { line: 37, question: { domain: "Grant's tomb", prompt: "The sun rises in the East.", options: ["True", "False"], type: "single", correct: 0, explanation: "" } },
      {
        line: 59,
        question: {
          domain: "Feedback",
          prompt: "What's the answer to this multiple-choice question?",
          options: ["wrong answer", "another wrong answer", "right answer"],
          type: "single",
          correct: 2,
          explanation: "Very good!",
        },
      },
      {
        line: 64,
        question: { domain: "Feedback", prompt: "Grant is buried in Grant's tomb.", options: ["True", "False"], type: "single", correct: 1, explanation: "Right, no one is." },
      },
      {
        line: 66,
        question: {
          domain: "Feedback",
          prompt: "Difficult question.",
          options: ["wrong answer", "half credit answer", "full credit answer"],
          type: "single",
          correct: 2,
          explanation: "",
        },
      },
      {
        line: 68,
        question: {
          domain: "Feedback",
          prompt: "How many pounds in a kilogram?",
          options: ["a few", "hundreds", "2.2"],
          type: "single",
          correct: 2,
          explanation: "A kilogram is about 2.2 pounds.",
        },
      },
      {
        line: 75,
        question: { domain: "Feedback", prompt: "Which answer equals 5?", options: ["= 2 + 2", "= 2 + 3", "= 2 + 4"], type: "single", correct: 1, explanation: "" },
      },
      {
        line: 81,
        name: "Colon: title",
        question: { domain: "Feedback", prompt: "What is HTML & why: {braces}?", options: ["Markup", "**Bold**"], type: "single", correct: 0, explanation: "" },
      },
    ]);
  });

  it("skips the types it does not deliver, and questions with no fully right option, naming why", () => {
    expect(bank.skipped).toEqual([
      { line: 20, reason: expect.stringContaining("Missing-word questions") },
      { line: 41, reason: "Short-answer questions are not delivered here; skipped." },
      { line: 43, reason: "Matching questions are not delivered here; skipped." },
      { line: 51, reason: "Numerical questions are not delivered here; skipped." },
      { line: 53, reason: "Essay questions are not delivered here; skipped." },
      { line: 55, reason: "Descriptions (text with no answers) are not delivered here; skipped." },
      { line: 86, reason: expect.stringContaining("worth 50%") },
      { line: 88, reason: expect.stringContaining("No option is marked right") },
    ]);
  });

  it("reads a nested category path and a '/' written as '//' into one domain name", async () => {
    const read = await readBank("gift", "$CATEGORY: $course$/top/Networks//Security/Firewalls\n\nQ {=a ~b}\n\n$CATEGORY: $system$/top\n\nR {=a ~b}");
    expect(read.questions.map((item) => item.question.domain)).toEqual(["Networks/Security/Firewalls", null]);
  });

  it("takes a category line directly followed by a question (no blank line)", async () => {
    const read = await readBank("gift", "$CATEGORY: Plain name\n::T:: Q? {=a ~b}");
    expect(read.questions).toEqual([{ line: 2, name: "T", question: expect.objectContaining({ domain: "Plain name", prompt: "Q?" }) }]);
  });

  it("skips a question that breaks our rules (two equal options) with the reason", async () => {
    const read = await readBank("gift", "Q {=Same ~same ~other}");
    expect(read.skipped).toEqual([{ line: 1, reason: "Option B: Two options are the same." }]);
  });

  it("skips several '=' answers: a one-answer question cannot have two right options", async () => {
    const read = await readBank("gift", "Q {=a =b ~c}");
    expect(read.skipped[0].reason).toMatch(/Several options are fully right/);
  });
});

describe("GIFT: malformed files", () => {
  it("gives the line of an unclosed answer block", async () => {
    const error = await catchSyntax("// a comment\n\nQ1 {=a ~b}\n\nQ2 {\n=a\n~b\n");
    expect(error.line).toBe(7);
  });

  it("gives the line of an unescaped special character inside a later question", async () => {
    const error = await catchSyntax("Q1 {=a ~b}\n\nQ2 {\n=a\n~b: c\n}");
    expect(error.line).toBe(5);
    expect(error.message).toMatch(/^Line 5: /);
  });

  it("refuses an empty file and a file of comments only", async () => {
    expect((await catchSyntax("")).message).toBe("The file has no questions.");
    expect((await catchSyntax("// nothing here\n// at all\n")).line).toBe(1);
  });
});

describe("GIFT: export", () => {
  it("writes the header, the categories when the domain changes, titles, weights and the explanation", () => {
    const { text, left_out } = writeBank("gift", [
      { domain: "A/B", prompt: "Pick: one", options: ["x{1}", "y"], type: "single", correct: 0, explanation: "Because\nso." },
      { domain: "A/B", prompt: "Pick two", options: ["a", "b", "c", "d"], type: "multiple", correct: [0, 1, 2], explanation: "" },
      { domain: null, prompt: "Loose", options: ["a", "b"], type: "single", correct: 1, explanation: "" },
    ]);
    expect(left_out).toEqual([]);
    expect(text).toBe(
      [
        "// Exported from Certify",
        "",
        "$CATEGORY: $course$/top/A//B",
        "",
        "::Q1:: Pick\\: one {",
        "\t=x\\{1\\}",
        "\t~y",
        "\t####Because\\nso.",
        "}",
        "",
        "::Q2:: Pick two {",
        "\t~%33.33333%a",
        "\t~%33.33333%b",
        "\t~%33.33333%c",
        "\t~%-100%d",
        "}",
        "",
        "$CATEGORY: $course$/top",
        "",
        "::Q3:: Loose {",
        "\t~a",
        "\t=b",
        "}",
        "",
      ].join("\n"),
    );
  });
});
