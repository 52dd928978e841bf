import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { FormatSyntaxError, readBank, writeBank, type ReadBank } from "@/lib/certification/own/formats/bank";

const fixture = (name: string) => readFileSync(new URL(`../../../fixtures/formats/${name}`, import.meta.url), "utf8");

const catchSyntax = async (text: string) => {
  try {
    await readBank("aiken", text);
  } catch (error) {
    if (error instanceof FormatSyntaxError) return error;
    throw error;
  }
  throw new Error("no FormatSyntaxError");
};

describe("Aiken: the example of Moodle's documentation", () => {
  it("imports both questions (options with '.' and ')'), with no domain and no explanation", async () => {
    expect(await readBank("aiken", fixture("moodle-docs-aiken.txt"))).toEqual({
      questions: [
        {
          line: 1,
          question: {
            domain: null,
            prompt: "What is the correct answer to this question?",
            options: ["Is it this one?", "Maybe this answer?", "Possibly this one?", "Must be this one!"],
            type: "single",
            correct: 3,
            explanation: "",
          },
        },
        {
          line: 8,
          question: {
            domain: null,
            prompt: "Which LMS has the most quiz import formats?",
            options: ["Moodle", "ATutor", "Claroline", "Blackboard", "WebCT", "Ilias"],
            type: "single",
            correct: 0,
            explanation: "",
          },
        },
      ],
      skipped: [],
    });
  });
});

describe("Aiken: questions that cannot be imported", () => {
  const text = [
    "Which is red?", // 1
    "A. Sky",
    "B. Blood",
    "", // 4
    "Which is blue?", // 5
    "A. Sky",
    "B. Grass",
    "ANSWER: C",
    "", // 9
    "Which is green?", // 10
    "A) Grass",
    "B) Snow",
    "ANSWER: A",
    "Which is white?", // 14: no blank line before it, as Moodle allows
    "A. Snow",
    "C. Coal",
    "ANSWER: A",
  ].join("\n");
  let bank: ReadBank;
  beforeAll(async () => {
    bank = await readBank("aiken", text);
  });

  it("imports the good ones", () => {
    expect(bank.questions.map((item) => [item.line, item.question.prompt])).toEqual([[10, "Which is green?"]]);
  });

  it("skips a missing ANSWER line, an ANSWER naming no option and options out of order, with their lines", () => {
    expect(bank.skipped).toEqual([
      { line: 1, reason: expect.stringContaining("The ANSWER line is missing") },
      { line: 5, reason: "ANSWER names option C, but the question has 2 options." },
      { line: 14, reason: expect.stringContaining("Option C is out of order") },
    ]);
  });

  it("refuses text that is not Aiken at all, and an empty file", async () => {
    const error = await catchSyntax("\n\nDear trainer,\nhere are my questions.\n");
    expect(error.line).toBe(3);
    expect(error.message).toMatch(/not an Aiken file/);
    expect((await catchSyntax("\n \n")).message).toBe("The file is empty.");
  });
});

describe("Aiken: export", () => {
  it("writes single questions on one line each and leaves out multiple-response ones", () => {
    const { text, left_out } = writeBank("aiken", [
      { domain: "D", prompt: "Line one\nline two", options: ["a", "b"], type: "single", correct: 1, explanation: "not written" },
      { domain: "D", prompt: "Two right", options: ["a", "b", "c"], type: "multiple", correct: [0, 1], explanation: "" },
    ]);
    expect(text).toBe("Line one line two\nA. a\nB. b\nANSWER: B\n");
    expect(left_out).toEqual([{ index: 1, reason: expect.stringContaining("one right option") }]);
  });
});
