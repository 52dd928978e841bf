import fc from "fast-check";
import { RE2JS } from "re2js";
import { describe, expect, it } from "vitest";
import { compileFlagPattern, estimatedProgramSize, FLAG_MAX_LENGTH, FLAG_PATTERN_MAX_PROGRAM, flagPatternAccepts, regexFlagProblem } from "./pattern";

/**
 * Flag patterns are RE2 (./flag-pattern.ts): what is stored, what is refused and why, and the
 * hostile patterns that held a backtracking engine for seconds answered right. Nothing here is
 * timed (RE2 counts no steps we could read): `npm run bench:redos` prints the figures.
 */

const accepts = (pattern: string, submission: string) => {
  const compiled = compileFlagPattern(pattern);
  if (compiled.problem !== null) throw new Error(compiled.problem);
  return flagPatternAccepts(compiled.matcher, submission);
};

describe("flag patterns that are stored", () => {
  it.each([
    ["flag\\{[a-z0-9_]+\\}", "flag{abc_123}", "flag{ABC}"],
    ["flag{[0-9a-f]{32}}", `flag{${"ab".repeat(16)}}`, `flag{${"ab".repeat(15)}}`],
    ["flag{...}", "flag{abc}", "flag{abcd}"],
    ["CTF\\{.*\\}", "CTF{anything at all}", "CTF{x}!"],
    ["CTF\\{(?:hello|hi)_world\\}", "CTF{hi_world}", "CTF{hey_world}"],
    ["CTF\\{a(_[a-z]+)?\\}", "CTF{a_b}", "CTF{a_}"],
    ["[(+*]+x", "(+*x", "x"],
    ["(?i)ctf\\{warm\\}", "CTF{WARM}", "CTF{cold}"],
    ["CTF\\{(?P<word>[a-z]+)\\}", "CTF{abc}", "CTF{}"],
    ["a{,3}", "a{,3}", "aaa"],
    ["CTF\\{\\x{e9}t\\x{E9}\\}", "CTF{été}", "CTF{ete}"],
  ])("%s: compiles; the right submission matches, another does not", (pattern, right, wrong) => {
    expect(regexFlagProblem(pattern)).toBeNull();
    expect(accepts(pattern, right)).toBe(true);
    expect(accepts(pattern, wrong)).toBe(false);
  });

  it("matches the whole submission: an alternation cannot escape the anchors", () => {
    expect(accepts("CTF\\{a\\}|CTF\\{b\\}", "CTF{a}tail")).toBe(false);
    expect(accepts("CTF\\{a\\}|CTF\\{b\\}", "headCTF{b}")).toBe(false);
    expect(accepts("CTF\\{a\\}|CTF\\{b\\}", "CTF{b}")).toBe(true);
    expect(accepts("a|ab", "ab")).toBe(true);
  });

  it("keeps the rules the former checker refused for safety only: nested and many quantifiers are linear in RE2", () => {
    for (const pattern of ["CTF\\{(a+)+\\}", "(a|aa)*", ".*.*.*", "CTF\\{(?:a|a){28}\\}", "(?:[a-z]+_)+[0-9]+"]) expect([pattern, regexFlagProblem(pattern)]).toEqual([pattern, null]);
  });
});

describe("flag patterns that are refused, and why", () => {
  it.each([
    ["(a)\\1", /^Back-references \(`\\1`, `\\k<name>`\) are not supported/],
    ["(?<n>a)\\k<n>", /^Back-references/],
    ["(?P<n>a)(?P=n)", /^Back-references/],
    ["(?=CTF)CTF\\{x\\}", /^Look-arounds .* are not supported/],
    ["CTF(?!x)", /^Look-arounds/],
    ["(?<=a)b", /^Look-arounds/],
    ["(?<!a)b", /^Look-arounds/],
    ["CTF\\{\\u00e9\\}", /^Write a code point as `\\x\{00e9\}`, not `\\u00e9`/],
    ["CTF\\{[a-z", /^Not a valid RE2 pattern: missing closing \]: `\[a-z`\.$/],
    ["a)|(b", /^Not a valid RE2 pattern: unexpected \): `a\)\|\(b`\.$/],
    ["(abc", /^Not a valid RE2 pattern: missing closing \)/],
    ["a**", /^Not a valid RE2 pattern: invalid nested repetition operator/],
    ["a{1001}", /^Not a valid RE2 pattern: invalid repeat count/],
  ])("%s → %s", (pattern, message) => {
    expect(regexFlagProblem(pattern)).toMatch(message);
  });

  it("refuses a program over the size bound, before compiling when the text already shows it", () => {
    // Compiled and measured: `.{0,500}` is 1,002 instructions, `.{0,499}` 1,000.
    expect(regexFlagProblem(".{0,500}")).toBe(
      `This pattern is too large: it compiles to 1002 instructions, at most ${FLAG_PATTERN_MAX_PROGRAM}. Repeat counts multiply (\`(?:[a-z]{10}){20}\` counts 200); a flag is at most ${FLAG_MAX_LENGTH} characters, so smaller counts match the same.`,
    );
    expect(regexFlagProblem(".{0,499}")).toBeNull();
    expect(regexFlagProblem("[a-z]{998}")).toBeNull();
    // Refused from its text alone (it would compile to 110,002 instructions, ~0.3 s of compiling).
    expect(regexFlagProblem(".{0,1000}".repeat(55))).toMatch(/^This pattern is too large: it compiles to an estimated 110000 instructions, at most 1000\./);
    expect(regexFlagProblem("x".repeat(FLAG_MAX_LENGTH + 1))).toBe(`A flag pattern is at most ${FLAG_MAX_LENGTH} characters.`);
  });
});

describe("any text", () => {
  it("is a pattern or a reason, never an exception; a compiled one checks any submission without one", () => {
    const text = fc.oneof(fc.string({ maxLength: 60 }), fc.string({ unit: "binary", maxLength: 60 }), fc.string({ unit: fc.constantFrom("(", ")", "[", "]", "{", "}", "\\", "?", "*", "+", "|", "^", "$", "<", ">", "=", "!", ":", "P", "p", "x", "1", ",", "a"), maxLength: 40 }));
    fc.assert(
      fc.property(text, fc.string({ unit: "binary", maxLength: 80 }), (pattern, submission) => {
        const compiled = compileFlagPattern(pattern);
        if (compiled.problem !== null) expect(compiled.problem).toMatch(/\S/);
        else expect(typeof flagPatternAccepts(compiled.matcher, submission)).toBe("boolean");
      }),
      { numRuns: 3000 },
    );
  });
});

describe("the hostile cases answer, and right", () => {
  // Each held a backtracking engine (JavaScript's RegExp) for seconds or more at this length.
  it.each([
    ["CTF\\{(?:a|a){28}\\}", `CTF{${"a".repeat(28)}!`, false],
    ["CTF\\{(?:a|a){28}\\}", `CTF{${"a".repeat(28)}}`, true],
    ["(a+)+$", `${"a".repeat(FLAG_MAX_LENGTH - 1)}!`, false],
    ["(a+)+$", "a".repeat(FLAG_MAX_LENGTH), true],
    ["(a|aa)*b", "a".repeat(FLAG_MAX_LENGTH), false],
    ["(a|aa)*b", `${"a".repeat(FLAG_MAX_LENGTH - 1)}b`, true],
    [".*.*.*.*.*.*.*.*.*.*.*.*x", "a".repeat(FLAG_MAX_LENGTH), false],
    ["(?:a*)*(?:a|b)*c", "ab".repeat(FLAG_MAX_LENGTH / 2), false],
  ])("%s against %#", (pattern, submission, expected) => {
    expect(accepts(pattern, submission)).toBe(expected);
    // The same answer as the backtracking engine gives when it finishes (the accepting ones do at once).
    if (expected) expect(new RegExp(`^(?:${pattern})$`).test(submission)).toBe(true);
  });

  it("a submission over the length bound matches nothing (the route refuses it before)", () => {
    expect(accepts("a*", "a".repeat(FLAG_MAX_LENGTH))).toBe(true);
    expect(accepts("a*", "a".repeat(FLAG_MAX_LENGTH + 1))).toBe(false);
  });
});

describe("RE2 gives JavaScript's answers on the syntax both share", () => {
  // Patterns of the shared subset: ASCII literals, escaped braces, classes, `.`, groups, alternation, quantifiers.
  const atom = fc.constantFrom("a", "b", "c", ".", "[ab]", "[^a]", "\\d", "\\w", "\\{", "\\}", "_", "(?:a|b)", "(?:)");
  const quantifier = fc.constantFrom("", "", "*", "+", "?", "{2}", "{1,3}", "{0,}", "*?");
  const piece = fc.tuple(atom, quantifier).map(([a, q]) => a + q);
  const branch = fc.array(piece, { minLength: 1, maxLength: 4 }).map((pieces) => pieces.join(""));
  const pattern = fc.oneof(branch, fc.tuple(branch, branch).map(([x, y]) => `${x}|${y}`), branch.map((x) => `(${x})+`));
  const submission = fc.string({ unit: fc.constantFrom("a", "b", "c", "1", "_", "{", "}", "-"), maxLength: 8 });

  it("whole-match answers agree over generated patterns and submissions", () => {
    fc.assert(
      fc.property(pattern, submission, (p, s) => {
        expect(regexFlagProblem(p)).toBeNull();
        expect(accepts(p, s)).toBe(new RegExp(`^(?:${p})$`).test(s));
      }),
      { numRuns: 2000 },
    );
  });
});

describe("the size estimate that guards compiling", () => {
  // Generated RE2 patterns: atoms, classes, escapes, flags, groups of every kind, quantifiers, nested.
  const atoms = fc.constantFrom("a", ".", "[a-z]", "[]a]", "[[:alpha:]x]", "\\d", "\\pL", "\\p{Greek}", "\\x{41}", "\\Qx{3}\\E", "{", "{,3}", "é", "😀", "(?i)", "(?s)", "(?i:a)", "^", "$", "\\b");
  const quantifier = fc.constantFrom("", "", "*", "+", "?", "{2}", "{3,}", "{2,7}", "{0,40}", "{10}", "*?", "{1,3}?", "{0}");
  const node: fc.Arbitrary<string> = fc.letrec((tie) => ({
    node: fc.oneof(
      { depthSize: "small" },
      fc.tuple(atoms, quantifier).map(([a, q]) => a + q),
      fc.tuple(fc.array(tie("node"), { maxLength: 4 }), fc.constantFrom("(", "(?:", "(?P<n>", "(?i:"), quantifier).map(([inner, open, q]) => `${open}${inner.join("")})${q}`),
      fc.tuple(tie("node"), tie("node")).map(([a, b]) => `${a}|${b}`),
    ),
  })).node as fc.Arbitrary<string>;

  it("is never far below the compiled program's size (so a pattern it lets through compiles cheaply)", () => {
    fc.assert(
      fc.property(fc.array(node, { maxLength: 8 }).map((parts) => parts.join("")), (pattern) => {
        let size: number;
        try {
          size = RE2JS.compile(pattern).programSize();
        } catch {
          return; // RE2 refuses it: nothing to compare
        }
        expect(size).toBeLessThanOrEqual(2 * estimatedProgramSize(pattern) + 8);
      }),
      { numRuns: 3000 },
    );
  });
});
