import { describe, expect, it } from "vitest";
import { answerKeyOf, chooseCount, correctOf, correctProblems, isCorrect } from "./question-type";

describe("question types (issue 23)", () => {
  it("stores a multiple set ascending with correct_index its first, a single index as it is", () => {
    expect(answerKeyOf("multiple", [3, 1])).toEqual({ type: "multiple", correctIndex: 1, correctIndexes: [1, 3] });
    expect(answerKeyOf("single", 2)).toEqual({ type: "single", correctIndex: 2, correctIndexes: null });
    expect(correctOf({ type: "multiple", correctIndex: 1, correctIndexes: [1, 3] })).toEqual([1, 3]);
    expect(chooseCount({ type: "multiple", correctIndex: 1, correctIndexes: [1, 3] })).toBe(2);
    expect(chooseCount({ type: "single", correctIndex: 0, correctIndexes: null })).toBe(1);
  });

  it("scores all or nothing: the exact set only", () => {
    const key = { type: "multiple" as const, correctIndex: 1, correctIndexes: [1, 3] };
    expect(isCorrect(key, [3, 1])).toBe(true);
    expect(isCorrect(key, [1])).toBe(false);
    expect(isCorrect(key, [1, 2])).toBe(false);
    expect(isCorrect(key, [1, 2, 3])).toBe(false);
    expect(isCorrect(key, 1)).toBe(false);
    expect(isCorrect(key, undefined)).toBe(false);
    const single = { type: "single" as const, correctIndex: 2, correctIndexes: null };
    expect(isCorrect(single, 2)).toBe(true);
    expect(isCorrect(single, [2])).toBe(false);
  });

  it("says what is wrong with a `correct` for its type", () => {
    expect(correctProblems("multiple", [0, 2], 4)).toEqual([]);
    expect(correctProblems("multiple", [0], 4)[0]).toMatch(/at least 2/);
    expect(correctProblems("multiple", [0, 1, 2, 3], 4)[0]).toMatch(/must be wrong/);
    expect(correctProblems("multiple", [0, 0], 4)[0]).toMatch(/twice/);
    expect(correctProblems("multiple", [0, 4], 4)[0]).toMatch(/one of the options/);
    expect(correctProblems("single", 4, 4)[0]).toMatch(/one of the options/);
    expect(correctProblems("single", [0, 1], 4)[0]).toMatch(/one right option/);
  });
});
