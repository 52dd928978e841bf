import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { likeMatches, type LikeSteps } from "./like";
import { runQuery } from "./mini-sql";

/**
 * LIKE without a RegExp (./like.ts): the same answers as a plain reference matcher and as the
 * RegExp it replaced (on ordinary text), and work that grows linearly with the text. Work is
 * counted in steps, never timed (the wall-clock figures are in `npm run bench:redos`).
 */

/** The reference: the definition, memoised (i characters of text against j of pattern). */
function referenceLike(text: string, pattern: string): boolean {
  const fold = (char: string) => (/^[A-Z]$/.test(char) ? char.toLowerCase() : char);
  const t = Array.from(text, fold);
  const p = Array.from(pattern, fold);
  const memo = new Map<number, boolean>();
  const match = (i: number, j: number): boolean => {
    if (j === p.length) return i === t.length;
    const key = i * (p.length + 1) + j;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let result: boolean;
    if (p[j] === "%") result = match(i, j + 1) || (i < t.length && match(i + 1, j));
    else result = i < t.length && (p[j] === "_" || p[j] === t[i]) && match(i + 1, j + 1);
    memo.set(key, result);
    return result;
  };
  return match(0, 0);
}

/** What mini-sql did before: `%` as `[\s\S]*` in a case-insensitive RegExp (exponential in the `%`s; small inputs only). */
function formerLike(text: string, pattern: string): boolean {
  const source = pattern
    .split("")
    .map((char) => (char === "%" ? "[\\s\\S]*" : char === "_" ? "[\\s\\S]" : char.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")))
    .join("");
  return new RegExp(`^${source}$`, "i").test(text);
}

const steps = (text: string, pattern: string) => {
  const counter: LikeSteps = { steps: 0 };
  likeMatches(text, pattern, counter);
  return counter.steps;
};
const length = (value: string) => Array.from(value).length;

// Small alphabets, so that patterns and texts meet often; `%` and `_` in texts too (they are plain characters there).
const textChar = fc.constantFrom("a", "b", "A", "B", "%", "_", ".", "*", "\n", "é", "É", "😀");
const patternChar = fc.constantFrom("%", "%", "_", "a", "b", "A", "B", ".", "*", "(", "[", "\\", "$", "é", "😀");
const text = fc.string({ unit: textChar, maxLength: 24 });
const pattern = fc.string({ unit: patternChar, maxLength: 12 });

describe("LIKE matches what it means", () => {
  it("agrees with the reference matcher over generated patterns and texts", () => {
    fc.assert(
      fc.property(text, pattern, (t, p) => {
        expect(likeMatches(t, p)).toBe(referenceLike(t, p));
      }),
      { numRuns: 3000 },
    );
  });

  it("gives the former RegExp's answers on ASCII text (what players type)", () => {
    const ascii = fc.string({ unit: fc.constantFrom("a", "b", "A", "Z", "z", "%", "_", ".", "*", "+", "?", "^", "$", "{", "}", "(", ")", "|", "[", "]", "\\", "/", " ", "\n", "'"), maxLength: 16 });
    const asciiPattern = fc.string({ unit: fc.constantFrom("%", "_", "a", "A", "z", "Z", ".", "*", "+", "?", "^", "$", "{", "}", "(", ")", "|", "[", "]", "\\", "/", " ", "\n"), maxLength: 10 });
    fc.assert(
      fc.property(ascii, asciiPattern, (t, p) => {
        expect(likeMatches(t, p)).toBe(formerLike(t, p));
      }),
      { numRuns: 3000 },
    );
  });

  it("folds ASCII letters only, and `_` takes one character (a code point), as SQLite", () => {
    expect(likeMatches("Desk LAMP", "%lamp")).toBe(true);
    expect(likeMatches("desk lamp", "DESK_LAMP")).toBe(true);
    expect(likeMatches("É", "é")).toBe(false);
    expect(likeMatches("😀", "_")).toBe(true);
    expect(likeMatches("a😀b", "a_b")).toBe(true);
    expect(likeMatches("", "%")).toBe(true);
    expect(likeMatches("", "_")).toBe(false);
    expect(likeMatches("50%", "50%")).toBe(true);
    expect(likeMatches("a.c", "a.c")).toBe(true);
    expect(likeMatches("abc", "a.c")).toBe(false);
  });
});

describe("LIKE's work grows linearly with the text", () => {
  it("takes at most (|pattern| + 1) · (|text| + 1) steps", () => {
    fc.assert(
      fc.property(fc.string({ unit: textChar, maxLength: 200 }), pattern, (t, p) => {
        expect(steps(t, p)).toBeLessThanOrEqual((length(p) + 1) * (length(t) + 1));
      }),
      { numRuns: 2000 },
    );
  });

  it("costs at most |pattern| + 1 steps per character added, plus a constant: appending t adds ≤ (|p| + 1) · (|t| + |p| + 2)", () => {
    // Why: the run over s·t repeats the run over s until it first reaches the end of s; from
    // there, a return to the last `%` re-reads at most |p| characters of s (the part that `%`'s
    // segment, which holds no `%`, had matched), and every other step reads t.
    fc.assert(
      fc.property(fc.string({ unit: textChar, maxLength: 120 }), fc.string({ unit: textChar, maxLength: 120 }), pattern, (s, t, p) => {
        const m = length(p);
        expect(steps(s + t, p) - steps(s, p)).toBeLessThanOrEqual((m + 1) * (length(t) + m + 2));
      }),
      { numRuns: 2000 },
    );
  });

  it("doubling the text at a fixed pattern at most doubles the steps (repeated text, long enough for the pattern)", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom("a", "b", "A"), minLength: 1, maxLength: 6 }), fc.string({ unit: fc.constantFrom("%", "_", "a", "b"), maxLength: 10 }), fc.integer({ min: 1, max: 30 }), (unit, p, n) => {
        const once = unit.repeat(n + length(p));
        const twice = once + once;
        const m = length(p);
        // 2·steps, plus the constant of the previous property (one return re-reads ≤ |p| characters).
        expect(steps(twice, p)).toBeLessThanOrEqual(2 * steps(once, p) + (m + 1) * (m + 2));
      }),
      { numRuns: 2000 },
    );
  });

  it("the attack (`'aaa…' LIKE '%%%…!'`) is a few steps per character, whatever the number of `%`", () => {
    for (const percents of [12, 40, 300]) {
      const hostile = `${"%".repeat(percents)}!`;
      const counted = [24, 48, 96, 192].map((n) => {
        expect(likeMatches("a".repeat(n), hostile)).toBe(false);
        expect(likeMatches(`${"a".repeat(n)}!`, hostile)).toBe(true);
        return steps("a".repeat(n), hostile);
      });
      for (let i = 1; i < counted.length; i++) expect(counted[i]).toBeLessThanOrEqual(2 * counted[i - 1]);
      expect(counted[counted.length - 1]).toBeLessThanOrEqual(percents + 2 * 192 + 1);
    }
  });
});

describe("mini-sql's LIKE", () => {
  const tables = {
    products: {
      columns: ["id", "name", "hidden"],
      rows: [
        [1, "Desk lamp", 0],
        [2, "Walnut desk", 0],
        [3, "Prototype X-9", 1],
      ],
    },
  };
  const search = (q: string) => runQuery(`SELECT name FROM products WHERE hidden = 0 AND name LIKE '%${q}%' LIMIT 20`, tables).rows.map(([name]) => name);

  it("answers the hostile search at once, and right: the visible rows, for the first condition holds and the second is false", () => {
    expect(search(`' OR '${"a".repeat(24)}' LIKE '${"%".repeat(12)}!`)).toEqual(["Desk lamp", "Walnut desk"]);
    expect(search(`' OR '${"a".repeat(200)}' LIKE '${"%".repeat(40)}!`)).toEqual(["Desk lamp", "Walnut desk"]);
    // True once the text ends the way the pattern asks: every row, the hidden one too.
    expect(search(`' OR '${"a".repeat(24)}!' LIKE '${"%".repeat(12)}!`)).toEqual(["Desk lamp", "Walnut desk", "Prototype X-9"]);
  });

  it("keeps the ordinary searches", () => {
    expect(search("lamp")).toEqual(["Desk lamp"]);
    expect(search("DESK")).toEqual(["Desk lamp", "Walnut desk"]);
    expect(search("d_sk")).toEqual(["Desk lamp", "Walnut desk"]);
    expect(search("")).toEqual(["Desk lamp", "Walnut desk"]);
    expect(search("proto")).toEqual([]);
    expect(runQuery("SELECT 1 LIKE 1, NULL LIKE 'a', 'a' LIKE NULL, 12 LIKE '1_'", {}).rows).toEqual([[1, null, null, 1]]);
  });
});
