/**
 * Flag patterns of `regex` challenges: what they must look like to be stored. No Node import:
 * the challenge schemas (also used by the dashboard's forms) check patterns with this.
 */

/** The pattern as it checks a submission: whole, never a part of it. */
export const anchoredFlagPattern = (pattern: string) => new RegExp(`^(?:${pattern})$`);

/** At most this many repeating quantifiers (`*`, `+`, `?`, `{m,n}`) in a flag pattern. */
export const REGEX_FLAG_MAX_QUANTIFIERS = 2;

/**
 * Why a flag pattern is refused, or null. JavaScript's engine backtracks, so instead of a
 * timeout the pattern's shape is bounded (submissions are at most 500 characters):
 * - it compiles, and its parentheses balance (so the anchors hold); no `u` flag, so
 *   `flag{…}` with bare braces is a literal, as organisers write it;
 * - no quantified group that itself holds a quantifier or an alternation (`(a+)+`, `(a|ab)*`:
 *   exponential);
 * - no back-references (`\1`, `\k<name>`);
 * - at most two quantifiers in all: a check is polynomial in their number (`.*.*.*b` on 500
 *   characters takes about half a second, `.*.*b` a few milliseconds).
 * A fixed count (`{32}`) is not a repeating quantifier. Character classes are skipped.
 */
export function regexFlagProblem(pattern: string): string | null {
  try {
    anchoredFlagPattern(pattern);
  } catch (error) {
    return `Not a valid regular expression: ${(error as Error).message}`;
  }
  /** The quantifier starting at `i`: its length and whether it repeats (a fixed `{n}` does not); null when none. */
  const quantifierAt = (i: number): { length: number; repeats: boolean; optional: boolean } | null => {
    const ch = pattern[i];
    if (ch === "*" || ch === "+") return { length: 1, repeats: true, optional: false };
    if (ch === "?") return { length: 1, repeats: true, optional: true };
    const counted = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i));
    if (!counted) return null;
    const optional = counted[1] === "0" && counted[3] === "1";
    return { length: counted[0].length, repeats: counted[2] !== undefined, optional };
  };
  // One frame per open group: whether it holds a quantifier or an alternation.
  const groups: { risky: boolean }[] = [{ risky: false }];
  let quantifiers = 0;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    let group: { risky: boolean } | null = null;
    if (ch === "\\") {
      const next = pattern[i + 1] ?? "";
      if (/[1-9]/.test(next) || next === "k") return "Back-references are not allowed in a flag pattern.";
      i++;
    } else if (ch === "[") {
      for (i++; i < pattern.length && pattern[i] !== "]"; i++) if (pattern[i] === "\\") i++;
    } else if (ch === "(") {
      groups.push({ risky: false });
      if (pattern[i + 1] === "?") {
        const named = pattern[i + 2] === "<" && pattern[i + 3] !== "=" && pattern[i + 3] !== "!";
        i = named ? pattern.indexOf(">", i) : pattern[i + 2] === "<" ? i + 3 : i + 2;
      }
      continue;
    } else if (ch === ")") {
      // `a)|(b` compiles once wrapped in `^(?:…)$`, but would escape the anchors.
      if (groups.length === 1) return "Unbalanced parenthesis: `)` closes no group.";
      group = groups.pop() ?? { risky: false };
      if (group.risky) groups[groups.length - 1].risky = true;
    } else if (ch === "|") {
      groups[groups.length - 1].risky = true;
      continue;
    }
    // `i` ends an atom (a character, escape, class or group): is it quantified?
    const quantifier = quantifierAt(i + 1);
    if (!quantifier) continue;
    if (quantifier.repeats) {
      if (group?.risky && !quantifier.optional) return "A repeated group may not itself contain a quantifier or an alternation (catastrophic backtracking).";
      quantifiers++;
      groups[groups.length - 1].risky = true;
    }
    i += quantifier.length;
    if (pattern[i + 1] === "?") i++; // lazy
  }
  if (quantifiers > REGEX_FLAG_MAX_QUANTIFIERS) return `At most ${REGEX_FLAG_MAX_QUANTIFIERS} repeating quantifiers (*, +, ?, {m,n}) in a flag pattern.`;
  return null;
}
