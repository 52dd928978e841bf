import type { TakingView } from "@/lib/certification/taking/taking";

/**
 * An answer on the recipient's page: an option's position (a single-answer question) or the
 * positions checked so far (a multiple-response one). A multiple-response answer is sent, and
 * counts as answered, only once exactly `choose` boxes are checked.
 */
export type AnswerValue = number | number[];

type Question = Pick<TakingView["questions"][number], "type" | "choose" | "options">;

/** Whether the option at `position` is part of `value`. */
export const includesOption = (value: AnswerValue | undefined, position: number) =>
  value === undefined ? false : typeof value === "number" ? value === position : value.includes(position);

/** A whole answer: one option, or exactly as many as the question says to choose. */
export function isComplete(question: Pick<Question, "type" | "choose">, value: AnswerValue | undefined): boolean {
  if (value === undefined) return false;
  if (question.type === "multiple") return Array.isArray(value) && value.length === question.choose;
  return typeof value === "number";
}

/** A value restored from this device still fits the question (its kind, count and options). */
export function fits(question: Question, value: unknown): value is AnswerValue {
  const inRange = (position: unknown) => Number.isInteger(position) && (position as number) >= 0 && (position as number) < question.options.length;
  if (question.type === "multiple") return Array.isArray(value) && value.length === question.choose && value.every(inRange) && new Set(value).size === value.length;
  return inRange(value);
}

/** Checking or unchecking a box of a multiple-response question: the new set, ascending; never more than `choose`. */
export function toggled(value: AnswerValue | undefined, position: number, choose: number): number[] {
  const set = Array.isArray(value) ? value : [];
  if (set.includes(position)) return set.filter((p) => p !== position);
  if (set.length >= choose) return set;
  return [...set, position].sort((a, b) => a - b);
}

/** All or nothing: the same option, or the same set. */
export function sameAnswer(a: AnswerValue | undefined, b: AnswerValue | undefined): boolean {
  if (a === undefined || b === undefined) return false;
  if (typeof a === "number" || typeof b === "number") return a === b;
  return a.length === b.length && a.every((p) => b.includes(p));
}
