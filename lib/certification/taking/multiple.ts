import { invalidFields } from "@/lib/kernel/errors";
import { chooseCount, type AnswerKey, type Chosen } from "@/lib/certification/catalog/question-type";

/**
 * Multiple-response questions on the taking path (issue 23): the page's view of a question's
 * type and count to choose, answers and right sets as positions on the recipient's page, and
 * the save's refusals that only the question can tell (lib/certification/tests/schemas.ts (answerBody)
 * checks what the body alone can).
 */

/** A stored answer as the recipient read returns it: [question id, option index, the set or null]. */
export type AnswerTuple = [number, number, number[] | null];

/** The chosen option(s) of a stored answer, in the question's own order. */
export const chosenOfTuple = ([, index, set]: AnswerTuple): Chosen => set ?? index;

/** How many of these questions are multiple-response. */
export const multipleCount = (test: { questions: Map<number, AnswerKey> }, questionOrder: readonly number[]) =>
  questionOrder.filter((id) => test.questions.get(id)?.type === "multiple").length;

/** The page's description of a question's kind: `single` choose 1, or `multiple` choose the size of the right set. */
export const kindOf = (question: AnswerKey) => ({ type: question.type, choose: chooseCount(question) });

/** Option index(es) in the question's own order → position(s) on the recipient's page (a set ascending by position). */
export function onPage(value: Chosen, shown: (index: number) => number): number | number[] {
  return typeof value === "number" ? shown(value) : value.map(shown).sort((a, b) => a - b);
}

/** The save's outcomes for a body of the wrong kind or count (db/migrations/0028_taking_multiple.sql), as field errors. */
export type MultipleOutcome = "options_expected" | "option_expected" | "wrong_count" | "no_such_options";

export function multipleRefusal(outcome: MultipleOutcome, choose: number | null) {
  switch (outcome) {
    case "options_expected":
      return invalidFields([{ field: "options", message: `This question takes ${choose ?? "several"} options: send them as \`options\`.` }]);
    case "option_expected":
      return invalidFields([{ field: "option", message: "This question takes one option: send it as `option`." }]);
    case "wrong_count":
      return invalidFields([{ field: "options", message: `Choose exactly ${choose} options.` }]);
    case "no_such_options":
      return invalidFields([{ field: "options", message: "No such option, or an option given twice." }]);
  }
}

/** The options parameter of the save: a PostgreSQL array literal, or null for `option`. */
export const optionsParam = (options: number[] | undefined) => (options ? `{${options.join(",")}}` : null);
