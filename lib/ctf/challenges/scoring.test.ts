import { describe, expect, it } from "vitest";
import { challengeValue } from "./scoring";

describe("challengeValue (CTFd's dynamic formula)", () => {
  const dynamic = { type: "dynamic" as const, initial: 500, minimum: 100, decay: 10 };

  it("a static challenge is worth its points whatever its solves", () => {
    expect(challengeValue({ type: "static" }, 250, 0)).toBe(250);
    expect(challengeValue({ type: "static" }, 250, 40)).toBe(250);
  });

  it("the first solver gets the initial value; it falls with the square of the later solves", () => {
    expect(challengeValue(dynamic, 500, 0)).toBe(500);
    expect(challengeValue(dynamic, 500, 1)).toBe(500);
    // s = 1: (100 − 500) / 100 · 1 + 500 = 496
    expect(challengeValue(dynamic, 500, 2)).toBe(496);
    // s = 2: −4 · 4 + 500 = 484
    expect(challengeValue(dynamic, 500, 3)).toBe(484);
    // s = 10 = decay: the minimum
    expect(challengeValue(dynamic, 500, 11)).toBe(100);
  });

  it("never goes below the minimum, and rounds up as CTFd does", () => {
    expect(challengeValue(dynamic, 500, 50)).toBe(100);
    // s = 1 with decay 3: (10 − 100) / 9 + 100 = 90; s = 2: −10 · 4 + 100 = 60; s = 3: 10
    const steep = { type: "dynamic" as const, initial: 100, minimum: 10, decay: 3 };
    expect([1, 2, 3, 4, 5].map((n) => challengeValue(steep, 100, n))).toEqual([100, 90, 60, 10, 10]);
    const odd = { type: "dynamic" as const, initial: 7, minimum: 1, decay: 4 };
    // s = 1: (1 − 7) / 16 + 7 = 6.625 → 7
    expect(challengeValue(odd, 7, 2)).toBe(7);
  });
});
