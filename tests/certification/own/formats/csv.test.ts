import { describe, expect, it } from "vitest";
import { FormatSyntaxError, readBank, writeBank } from "@/lib/certification/own/formats/bank";

const catchSyntax = async (text: string) => {
  try {
    await readBank("csv", text);
  } catch (error) {
    if (error instanceof FormatSyntaxError) return error;
    throw error;
  }
  throw new Error("no FormatSyntaxError");
};

describe("CSV: reading", () => {
  it("reads today's four-option layout, a letter or a number as the answer, and A;C as a multiple-response question", async () => {
    const text = [
      "domain,question,option_a,option_b,option_c,option_d,correct,explanation",
      "Networking,What is 2+2?,3,4,5,,B,Basic arithmetic.",
      "Security,Which are ports?,22,cat,443,dog,A;C,",
      ",No domain here?,yes,no,,,1,",
    ].join("\r\n");
    expect(await readBank("csv", text)).toEqual({
      questions: [
        { line: 2, question: { domain: "Networking", prompt: "What is 2+2?", options: ["3", "4", "5"], type: "single", correct: 1, explanation: "Basic arithmetic." } },
        { line: 3, question: { domain: "Security", prompt: "Which are ports?", options: ["22", "cat", "443", "dog"], type: "multiple", correct: [0, 2], explanation: "" } },
        { line: 4, question: { domain: null, prompt: "No domain here?", options: ["yes", "no"], type: "single", correct: 0, explanation: "" } },
      ],
      skipped: [],
    });
  });

  it("reads 2 and 8 option columns (option_a to option_h), in any case", async () => {
    expect((await readBank("csv", "Domain,Question,Option_A,Option_B,Correct,Explanation\nD,Q?,x,y,b,\n")).questions[0].question.correct).toBe(1);
    const wide = "domain,question,option_a,option_b,option_c,option_d,option_e,option_f,option_g,option_h,correct,explanation\nD,Q?,1,2,3,4,5,6,7,8,H,\n";
    expect((await readBank("csv", wide)).questions[0].question).toMatchObject({ options: ["1", "2", "3", "4", "5", "6", "7", "8"], correct: 7 });
  });

  it("skips bad rows with their line and the reason, and keeps the good ones", async () => {
    const text = [
      "domain,question,option_a,option_b,option_c,option_d,correct,explanation", // 1
      "D,Good?,a,b,,,A,", // 2
      "D,Too few columns,a,b,A", // 3
      "D,Gap?,a,,c,,A,", // 4
      "D,Bad letter?,a,b,,,Z,", // 5
      "D,Empty option named?,a,b,,,C,", // 6
      'D,"Spans', // 7
      'two lines",a,a,,,A,', // 8 (same record)
      "D,,a,b,,,A,", // 9
      "D,All right?,a,b,,,A;B,", // 10
    ].join("\n");
    const bank = await readBank("csv", text);
    expect(bank.questions.map((item) => item.line)).toEqual([2]);
    expect(bank.skipped).toEqual([
      { line: 3, reason: "This row has 5 columns; the header has 8. Put text with commas in double quotes." },
      { line: 4, reason: "Option B is empty but a later option is not; fill the options in order from A." },
      { line: 5, reason: 'The correct column must be a letter A to H or a number 1 to 8, or several joined by ";" (A;C); found "Z".' },
      { line: 6, reason: "The correct column names option C, which is empty." },
      { line: 7, reason: "Option B: Two options are the same." },
      { line: 9, reason: "The question: Write the question." },
      { line: 10, reason: "At least one option must be wrong." },
    ]);
  });

  it("throws for a broken file: unclosed quote, wrong header, empty", async () => {
    expect((await catchSyntax('domain,question,option_a,option_b,correct,explanation\nD,"never closed,a,b,A,\n')).line).toBe(2);
    const header = await catchSyntax("\n\nname,question,a,b,correct,explanation\nD,Q,a,b,A,\n");
    expect(header.line).toBe(3);
    expect(header.message).toMatch(/header: domain,question,option_a/);
    expect((await catchSyntax("domain,question,option_a,correct,explanation\n")).line).toBe(1);
    expect((await catchSyntax("")).message).toBe("The file is empty.");
    expect((await catchSyntax("domain,question,option_a,option_b,correct,explanation\n")).message).toBe("The file has no questions.");
  });
});

describe("CSV: writing", () => {
  it("writes at least four option columns, the domain (empty for none), letters, quotes where needed and CRLF", () => {
    const { text, left_out } = writeBank("csv", [
      { domain: null, prompt: 'Say "hi", then\nleave', options: ["a", "b"], type: "single", correct: 1, explanation: "" },
      { domain: "D", prompt: "=SUM(A1)", options: ["x", "y", "z"], type: "multiple", correct: [0, 2], explanation: "-1 is wrong" },
    ]);
    expect(left_out).toEqual([]);
    expect(text).toBe(
      [
        "domain,question,option_a,option_b,option_c,option_d,correct,explanation",
        ',"Say ""hi"", then\nleave",a,b,,,B,',
        "D,'=SUM(A1),x,y,z,,A;C,'-1 is wrong",
        "",
      ].join("\r\n"),
    );
  });

  it("widens to the widest question", () => {
    const { text } = writeBank("csv", [{ domain: "D", prompt: "Q", options: ["1", "2", "3", "4", "5", "6"], type: "single", correct: 5, explanation: "" }]);
    expect(text.split("\r\n")[0]).toBe("domain,question,option_a,option_b,option_c,option_d,option_e,option_f,correct,explanation");
  });
});
