import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/kernel/errors";
import { correctColumn, readCorrect, readQuestionsCsv } from "./questions-csv";

const HEADER = "domain,question,option_a,option_b,option_c,option_d,correct,explanation";

function fieldsOf(csv: string) {
  try {
    readQuestionsCsv(csv);
  } catch (error) {
    if (error instanceof AppError) return error.fields ?? [];
    throw error;
  }
  throw new Error("no error");
}

describe("the correct column (issue 23)", () => {
  it("reads one option as a single-answer question and `;`-separated ones as a multiple-response question", () => {
    expect(readCorrect("B")).toEqual({ type: "single", correct: 1 });
    expect(readCorrect(" 3 ")).toEqual({ type: "single", correct: 2 });
    expect(readCorrect("A;C")).toEqual({ type: "multiple", correct: [0, 2] });
    expect(readCorrect("d; b")).toEqual({ type: "multiple", correct: [3, 1] });
    expect(readCorrect("1;2;4")).toEqual({ type: "multiple", correct: [0, 1, 3] });
    for (const bad of ["", "E", "A;", ";B", "A,C", "AC", "A;;C", "0", "5"]) expect(readCorrect(bad), bad).toBeUndefined();
  });

  it("writes the same form an import reads", () => {
    expect(correctColumn({ type: "single", correct: 1 })).toBe("B");
    expect(correctColumn({ type: "multiple", correct: [0, 2] })).toBe("A;C");
    expect(readCorrect(correctColumn({ type: "multiple", correct: [1, 3] }))).toEqual({ type: "multiple", correct: [1, 3] });
  });

  it("imports a multiple-response row with its set ascending", () => {
    const rows = readQuestionsCsv(`${HEADER}\nNet,Which two are transport protocols?,IP,UDP,ARP,TCP,D;B,TCP and UDP.\n`);
    expect(rows).toEqual([{ domain: "Net", prompt: "Which two are transport protocols?", options: ["IP", "UDP", "ARP", "TCP"], type: "multiple", correct: [3, 1], explanation: "TCP and UDP." }]);
  });

  it("names the row and line of a bad set: an unknown letter, an empty option, a repeat, every option right", () => {
    const csv = [
      HEADER,
      "Net,Q1?,a,b,c,d,A;X,",
      "Net,Q2?,a,b,,,A;C,",
      "Net,Q3?,a,b,c,d,B;B,",
      "Net,Q4?,a,b,c,,A;B;C,",
      "Net,Q5?,a,b,c,d,A,",
    ].join("\n");
    const fields = fieldsOf(csv);
    expect(fields.map((f) => f.field)).toEqual(["rows.1.correct", "rows.2.correct", "rows.3.correct", "rows.4.correct"]);
    expect(fields[0].message).toMatch(/^Row 1 \(line 2\): correct must be A, B, C or D .*A;C/);
    expect(fields[1].message).toMatch(/^Row 2 \(line 3\): .*option C, which is empty/);
    expect(fields[2].message).toMatch(/^Row 3 \(line 4\): An option is listed twice/);
    expect(fields[3].message).toMatch(/^Row 4 \(line 5\): At least one option must be wrong/);
  });
});
