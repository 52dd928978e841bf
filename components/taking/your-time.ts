import { minutesText as duration } from "@/lib/certification/tests/settings-text";
import type { TakingView } from "@/lib/certification/taking/taking";

type TestFacts = Pick<TakingView["test"], "timeLimitMinutes" | "extraTimeMinutes" | "closesAt">;

/**
 * "60 + 30 minutes extra": the recipient's own time when they were given extra time (an
 * accommodation); null without extra time, or when nothing ends the attempt (no limit, no
 * closing time), where extra time changes nothing.
 */
export function yourTime(test: TestFacts): string | null {
  if (!test.extraTimeMinutes) return null;
  if (test.timeLimitMinutes !== null) return `${test.timeLimitMinutes} + ${test.extraTimeMinutes} minutes extra`;
  return test.closesAt ? `Until the test closes + ${test.extraTimeMinutes} minutes extra` : null;
}

/** The sentence above Start when there is a time limit: how long, counted from Start, and what closes_at does to it. */
export function clockSentence(test: TestFacts & { timeLimitMinutes: number }): string {
  const extra = test.extraTimeMinutes ? ` plus ${duration(test.extraTimeMinutes)} of extra time` : "";
  const window = test.closesAt ? `, and at most until the test closes${test.extraTimeMinutes ? " plus your extra time" : ""}` : "";
  return `The clock starts when you press Start: you then have ${duration(test.timeLimitMinutes)}${extra}${window}. When the time is up, your answers are submitted as they stand.`;
}
