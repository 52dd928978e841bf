import type { ChallengeScoring } from "@/db/schema";

/**
 * A challenge's current value. `static`: its `points`. `dynamic`: CTFd's dynamic value
 * (CTFd/plugins/dynamic_challenges/decay.py, "logarithmic"): a parabola from `initial` down to
 * `minimum`, reached after `decay` solves,
 *
 *   value = ceil(((minimum − initial) / decay²) · s² + initial), never below `minimum`,
 *
 * where s is the number of solves less one (the first solver gets `initial`; no solve: s = 0).
 * Every solver's score follows the current value, as on CTFd (docs/decisions.md).
 */
export function challengeValue(scoring: ChallengeScoring, points: number, solveCount: number): number {
  if (scoring.type !== "dynamic") return points;
  const s = Math.max(0, solveCount - 1);
  const value = Math.ceil(((scoring.minimum - scoring.initial) / scoring.decay ** 2) * s ** 2 + scoring.initial);
  return Math.max(scoring.minimum, value);
}
