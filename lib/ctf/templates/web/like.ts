/**
 * SQL `LIKE` as SQLite evaluates it (no ESCAPE clause): `%` matches any run of characters,
 * `_` exactly one, anything else itself, ASCII letters without regard to case (other letters
 * exactly, as SQLite without ICU). Characters are code points.
 *
 * No RegExp: both sides come from the player, and `%` as `[\s\S]*` in a backtracking engine
 * is exponential in the number of `%` (`'aaaa…' LIKE '%%%%…!'` held the process for
 * seconds). This is the two-pointer wildcard match: on a mismatch it returns to the last `%`
 * and lets it take one more character, never further back — a `%` earlier than the last one
 * need not be retried, as the last one can absorb anything it would have. Each step advances
 * the text or the pattern, and each return moves that `%`'s start one character on, so the
 * work is at most about (|pattern| + 1) · (|text| + 1) steps.
 */

/** Counts the matcher's steps (tests and benches: the work a match did). */
export type LikeSteps = { steps: number };

const foldAscii = (char: string) => (char.length === 1 && char >= "A" && char <= "Z" ? char.toLowerCase() : char);

export function likeMatches(text: string, pattern: string, counter?: LikeSteps): boolean {
  const subject = Array.from(text, foldAscii);
  const wildcard = Array.from(pattern, foldAscii);
  let steps = 0;
  let at = 0; // in subject
  let next = 0; // in wildcard
  let lastPercent = -1; // the wildcard index of the last `%` met
  let resumeAt = 0; // where the text goes on when that `%` takes one more character
  while (at < subject.length) {
    steps++;
    if (next < wildcard.length && wildcard[next] === "%") {
      lastPercent = next++;
      resumeAt = at;
    } else if (next < wildcard.length && (wildcard[next] === "_" || wildcard[next] === subject[at])) {
      next++;
      at++;
    } else if (lastPercent >= 0) {
      next = lastPercent + 1;
      at = ++resumeAt;
    } else {
      if (counter) counter.steps += steps;
      return false;
    }
  }
  while (next < wildcard.length && wildcard[next] === "%") {
    steps++;
    next++;
  }
  if (counter) counter.steps += steps;
  return next === wildcard.length;
}
