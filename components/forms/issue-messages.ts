import type { z } from "zod";

type Issue = z.core.$ZodRawIssue;

const isBlank = (input: unknown) => input === undefined || input === null || input === "" || (typeof input === "number" && Number.isNaN(input));

const formats: Record<string, string> = {
  email: "Enter an e-mail address, such as ada@example.com.",
  url: "Enter a web address starting with https://.",
  datetime: "Enter a date and time.",
};

/**
 * The words a form shows for a check the contract left without a message of its own (zod's
 * "Too small: expected string to have >=1 characters" reads as code to a person), from the
 * issue's code: a per-parse error map, so every message the contract writes itself is kept as
 * it is (and put in the form's words by `fieldMessage`). The API keeps zod's precise wording.
 */
export const formErrorMap = (issue: Issue): string | undefined => {
  switch (issue.code) {
    case "invalid_type":
      if (isBlank(issue.input)) return "Fill this in.";
      if (issue.expected === "number" || issue.expected === "int") return issue.expected === "int" ? "Enter a whole number." : "Enter a number.";
      return "Enter a valid value.";
    case "too_small":
      return tooSmall(issue.origin, Number(issue.minimum), issue.inclusive !== false);
    case "too_big":
      return tooBig(issue.origin, Number(issue.maximum), issue.inclusive !== false);
    case "invalid_format":
      return formats[issue.format] ?? "Check how this is written.";
    case "invalid_value":
      return "Choose one of the options offered.";
    case "not_multiple_of":
      return Number(issue.divisor) === 1 ? "Enter a whole number." : `Enter a multiple of ${String(issue.divisor)}.`;
    default:
      return undefined;
  }
};

function tooSmall(origin: string | undefined, minimum: number, inclusive: boolean): string {
  if (origin === "string") return minimum <= 1 ? "Fill this in." : `Use at least ${minimum} characters.`;
  if (origin === "array" || origin === "set") return minimum <= 1 ? "Choose or add at least one." : `Choose or add at least ${minimum}.`;
  return inclusive ? `Enter ${minimum} or more.` : `Enter more than ${minimum}.`;
}

function tooBig(origin: string | undefined, maximum: number, inclusive: boolean): string {
  if (origin === "string") return `Use at most ${maximum} characters.`;
  if (origin === "array" || origin === "set") return `At most ${maximum}.`;
  return inclusive ? `Enter ${maximum} or less.` : `Enter less than ${maximum}.`;
}
