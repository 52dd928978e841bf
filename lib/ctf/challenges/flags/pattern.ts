/**
 * Flag patterns of `regex` challenges: which are stored, and how a submission is checked
 * against one. No Node import: the challenge schemas (also used by the dashboard's forms)
 * check patterns with this, in the browser too (re2js is plain JavaScript).
 *
 * Patterns are RE2 syntax (https://github.com/google/re2/wiki/Syntax), run by re2js, a
 * linear-time engine: no backtracking, so no pattern and submission can hold the process —
 * `(?:a|a){28}`, `(a+)+$` or `(a|aa)*b` cost what `a*` costs. What RE2 lacks is refused:
 * back-references and look-arounds. The one bound left is the compiled program's size: a
 * check takes time proportional to it × the submission's length, and compiling to it.
 */
import { RE2JS } from "re2js";

/** A flag, a pattern and a submission are at most this many characters (the schemas' bound too). */
export const FLAG_MAX_LENGTH = 500;

/**
 * At most this many instructions in a pattern's compiled RE2 program. Ordinary patterns need
 * a few dozen (`flag\{[0-9a-f]{32}\}`: 40; `CTF\{.{1,400}\}`: 806); repeat counts multiply
 * (`(?:[a-z]{10}){20}`: ~200). A check costs up to about (program size × submission length):
 * the worst shape at this bound, `(?:.?){499}` against 500 characters, takes ~15–30 ms (it was
 * 110 ms at 2,000 instructions); an ordinary pattern well under 1 ms.
 */
export const FLAG_PATTERN_MAX_PROGRAM = 1000;

/** Above this estimate (from the text alone) a pattern is refused without compiling it: compiling costs about what the program weighs. */
const MAX_ESTIMATE = 4 * FLAG_PATTERN_MAX_PROGRAM;

export type FlagPattern = { matcher: RE2JS; problem: null } | { matcher: null; problem: string };

/** The pattern compiled for checking submissions, or why it cannot be. */
export function compileFlagPattern(pattern: string): FlagPattern {
  const refused = (problem: string): FlagPattern => ({ matcher: null, problem });
  if (pattern.length > FLAG_MAX_LENGTH) return refused(`A flag pattern is at most ${FLAG_MAX_LENGTH} characters.`);
  const estimate = estimatedProgramSize(pattern);
  if (estimate > MAX_ESTIMATE) return refused(tooLarge(`an estimated ${estimate > 1e6 ? "million or more" : estimate} instructions`));
  let matcher: RE2JS;
  try {
    matcher = RE2JS.compile(pattern);
  } catch (error) {
    return refused(syntaxProblem(pattern, error instanceof Error ? error.message : String(error)));
  }
  const size = matcher.programSize();
  if (size > FLAG_PATTERN_MAX_PROGRAM) return refused(tooLarge(`${size} instructions`));
  return { matcher, problem: null };
}

/** Why a flag pattern is refused, or null: it compiles with RE2 within the size bound. */
export function regexFlagProblem(pattern: string): string | null {
  return compileFlagPattern(pattern).problem;
}

/** Whether the whole submission matches (anchored at both ends: an alternation cannot escape). Linear in the submission. */
export function flagPatternAccepts(matcher: RE2JS, submission: string): boolean {
  return submission.length <= FLAG_MAX_LENGTH && matcher.testExact(submission);
}

function tooLarge(compiled: string): string {
  return `This pattern is too large: it compiles to ${compiled}, at most ${FLAG_PATTERN_MAX_PROGRAM}. Repeat counts multiply (\`(?:[a-z]{10}){20}\` counts 200); a flag is at most ${FLAG_MAX_LENGTH} characters, so smaller counts match the same.`;
}

/** RE2's refusal, in the organiser's words for what they most likely wrote (JavaScript or PCRE habits). */
function syntaxProblem(pattern: string, message: string): string {
  const detail = message.replace(/^error parsing regexp: /, "");
  if (/`\\[1-9k]`/.test(detail) || /\(\?P=/.test(pattern)) return "Back-references (`\\1`, `\\k<name>`) are not supported: flag patterns are RE2 syntax, matched in linear time.";
  if (/`\(\?[=!]`/.test(detail) || /\(\?<[=!]/.test(pattern)) return "Look-arounds (`(?=…)`, `(?!…)`, `(?<=…)`, `(?<!…)`) are not supported: flag patterns are RE2 syntax, matched in linear time.";
  if (/`\\u`/.test(detail)) return "Write a code point as `\\x{00e9}`, not `\\u00e9`: flag patterns are RE2 syntax.";
  return `Not a valid RE2 pattern: ${detail}.`;
}

/** A counted repeat where RE2 sees one (`{2}`, `{2,}`, `{2,5}`; else `{` is a literal). Sticky: read at one index. */
const COUNTED = /\{(\d+)(,(\d*))?\}/y;

/**
 * An estimate of the compiled program's size, from the text: each atom (character, escape,
 * class, `.`) counts 1, a group what it holds plus 2, `|` 1, `*` `+` `?` 1 more, and `{m,n}`
 * multiplies what it repeats by its largest count (plus one per copy). Often above the real
 * size (RE2 simplifies), never far below it (the real size stays under 2 × this + 8: a
 * property of ./flag-pattern.test.ts). Only a guard before compiling: RE2 parses the pattern,
 * and the compiled program's size is what decides.
 */
export function estimatedProgramSize(pattern: string): number {
  type Frame = { size: number; last: number };
  const stack: Frame[] = [{ size: 0, last: 0 }];
  const top = () => stack[stack.length - 1];
  const atom = (size: number) => {
    top().size += size;
    top().last = size;
  };
  /** The last item (its own quantifiers included: RE2 may repeat it again after a `(?i)`) as `copies` copies, plus `extra` per copy. */
  const repeat = (copies: number, extra: number) => {
    const frame = top();
    const repeated = Math.max(1, copies) * (frame.last + extra);
    frame.size += repeated - frame.last;
    frame.last = repeated;
  };
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === "\\") {
      const next = pattern[i + 1];
      if (next === "Q") {
        const end = pattern.indexOf("\\E", i + 2);
        const stop = end < 0 ? pattern.length : end;
        atom(Math.max(1, stop - (i + 2)));
        i = end < 0 ? pattern.length : end + 1;
        continue;
      }
      if ((next === "p" || next === "P" || next === "x") && pattern[i + 2] === "{") {
        const end = pattern.indexOf("}", i);
        i = end < 0 ? pattern.length : end;
      } else i++;
      atom(1);
    } else if (ch === "[") {
      i = classEnd(pattern, i);
      atom(1);
    } else if (ch === "(") {
      if (pattern[i + 1] === "?") {
        const named = pattern.startsWith("?P<", i + 1) || pattern.startsWith("?<", i + 1);
        let j = named ? pattern.indexOf(">", i) : i + 2;
        if (j < 0) j = pattern.length;
        if (!named) while (j < pattern.length && pattern[j] !== ":" && pattern[j] !== ")") j++;
        i = j;
        if (pattern[j] === ")") continue; // `(?i)`: flags, no group
      }
      stack.push({ size: 0, last: 0 });
    } else if (ch === ")") {
      if (stack.length > 1) atom((stack.pop() as Frame).size + 2);
    } else if (ch === "|") {
      top().size += 1;
      top().last = 0;
    } else if (ch === "*" || ch === "+" || ch === "?") {
      repeat(1, 1);
    } else if (ch === "{") {
      COUNTED.lastIndex = i;
      const counted = COUNTED.exec(pattern);
      if (!counted) {
        atom(1);
        continue;
      }
      repeat(counted[3] ? Number(counted[3]) : counted[2] !== undefined ? Number(counted[1]) + 1 : Number(counted[1]), 1);
      i += counted[0].length - 1;
    } else atom(1);
  }
  return stack.reduce((total, frame) => total + frame.size, 0);
}

/** The index of the `]` that closes the class opened at `start` (RE2: a `]` first is a literal; `[:alpha:]` inside). */
function classEnd(pattern: string, start: number): number {
  let i = start + 1;
  if (pattern[i] === "^") i++;
  if (pattern[i] === "]") i++;
  for (; i < pattern.length; i++) {
    if (pattern[i] === "\\") i++;
    else if (pattern[i] === "[" && pattern[i + 1] === ":") {
      const end = pattern.indexOf(":]", i + 2);
      if (end >= 0) i = end + 1;
    } else if (pattern[i] === "]") return i;
  }
  return pattern.length;
}
