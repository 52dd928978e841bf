import { describe, expect, it } from "vitest";
import { bankFileExtensions, bankFormats, bankMediaTypes, checkQuestion, MAX_BANK_QUESTIONS, readBank } from "@/lib/certification/own/formats/bank";

describe("checkQuestion", () => {
  const good = { domain: "D", prompt: "Q?", options: ["a", "b", "c"], type: "single" as const, correct: 0, explanation: "" };

  it("accepts a question that meets the editor's rules", () => {
    expect(checkQuestion(good)).toBeUndefined();
    expect(checkQuestion({ ...good, domain: null, type: "multiple", correct: [0, 1] })).toBeUndefined();
  });

  it("gives one reason in words, naming the part of the question", () => {
    expect(checkQuestion({ ...good, options: ["a", "A", "c"] })).toBe("Option B: Two options are the same.");
    expect(checkQuestion({ ...good, options: ["a"] })).toBe("The options: Give at least 2 options.");
    expect(checkQuestion({ ...good, options: Array.from({ length: 9 }, (_, index) => `o${index}`) })).toBe("The options: At most 8 options.");
    expect(checkQuestion({ ...good, prompt: "x".repeat(2001) })).toBe("The question: At most 2000 characters.");
    expect(checkQuestion({ ...good, explanation: "x".repeat(2001) })).toBe("The explanation: At most 2000 characters.");
    expect(checkQuestion({ ...good, options: ["a", "x".repeat(501)] })).toBe("Option B: At most 500 characters.");
    expect(checkQuestion({ ...good, type: "multiple", correct: [0, 1, 2] })).toBe("At least one option must be wrong.");
    expect(checkQuestion({ ...good, domain: "d".repeat(201) })).toBe("The domain name is longer than 200 characters.");
  });
});

describe("readBank", () => {
  it("trims the texts it imports", async () => {
    const read = await readBank("csv", 'domain,question,option_a,option_b,correct,explanation\n  D ,"  Q?  ", a , b ,A," why "\n');
    expect(read.questions[0].question).toEqual({ domain: "D", prompt: "Q?", options: ["a", "b"], type: "single", correct: 0, explanation: "why" });
  });

  it(`imports the first ${MAX_BANK_QUESTIONS} questions and skips the rest`, async () => {
    const rows = Array.from({ length: MAX_BANK_QUESTIONS + 2 }, (_, index) => `D,Question ${index}?,a,b,A,`);
    const read = await readBank("csv", ["domain,question,option_a,option_b,correct,explanation", ...rows].join("\n"));
    expect(read.questions).toHaveLength(MAX_BANK_QUESTIONS);
    // One entry for the rest, at the first item not read.
    expect(read.skipped).toEqual([
      {
        line: MAX_BANK_QUESTIONS + 2,
        reason: `At most ${MAX_BANK_QUESTIONS} questions per import: this item and the 1 after it were not read. Import them from a second file.`,
      },
    ]);
  });

  it("has a media type and a file extension for every format", () => {
    expect(bankFormats.map((format) => [bankMediaTypes[format], bankFileExtensions[format]])).toEqual([
      ["text/csv; charset=utf-8", "csv"],
      ["text/plain; charset=utf-8", "txt"],
      ["application/xml; charset=utf-8", "xml"],
      ["text/plain; charset=utf-8", "txt"],
    ]);
  });
});
