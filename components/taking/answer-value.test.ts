import { describe, expect, it } from "vitest";
import { fits, includesOption, isComplete, sameAnswer, toggled } from "./answer-value";

const multiple = { type: "multiple" as const, choose: 2, options: ["a", "b", "c", "d"] };
const single = { type: "single" as const, choose: 1, options: ["a", "b", "c"] };

describe("answers on the recipient's page (issue 23)", () => {
  it("checks and unchecks boxes, ascending, never more than the count to choose", () => {
    expect(toggled(undefined, 2, 2)).toEqual([2]);
    expect(toggled([2], 0, 2)).toEqual([0, 2]);
    expect(toggled([0, 2], 3, 2)).toEqual([0, 2]); // full: a third box waits
    expect(toggled([0, 2], 0, 2)).toEqual([2]);
  });

  it("is a whole answer only with exactly `choose` options (multiple) or one option (single)", () => {
    expect(isComplete(multiple, [1])).toBe(false);
    expect(isComplete(multiple, [1, 3])).toBe(true);
    expect(isComplete(multiple, 1)).toBe(false);
    expect(isComplete(single, 0)).toBe(true);
    expect(isComplete(single, [0])).toBe(false);
    expect(isComplete(single, undefined)).toBe(false);
  });

  it("restores from the device only what still fits the question", () => {
    expect(fits(multiple, [0, 3])).toBe(true);
    expect(fits(multiple, [0, 0])).toBe(false);
    expect(fits(multiple, [0, 4])).toBe(false);
    expect(fits(multiple, [0])).toBe(false);
    expect(fits(multiple, 1)).toBe(false);
    expect(fits(single, 2)).toBe(true);
    expect(fits(single, 3)).toBe(false);
    expect(fits(single, [1, 2])).toBe(false);
    expect(fits(single, "1")).toBe(false);
  });

  it("compares sets whatever their order, and marks the options in them", () => {
    expect(sameAnswer([1, 3], [3, 1])).toBe(true);
    expect(sameAnswer([1, 3], [1, 2])).toBe(false);
    expect(sameAnswer([1], [1, 3])).toBe(false);
    expect(sameAnswer(2, 2)).toBe(true);
    expect(sameAnswer(2, [2])).toBe(false);
    expect(includesOption([1, 3], 3)).toBe(true);
    expect(includesOption(3, 3)).toBe(true);
    expect(includesOption(undefined, 0)).toBe(false);
  });
});
