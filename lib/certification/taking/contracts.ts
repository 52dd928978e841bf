import { contract } from "@/lib/kernel/contract";
import { answerInput, answerSaved, attemptView, resultView } from "@/lib/certification/tests/schemas";
import { token } from "@/lib/certification/tests/contracts";

export const takingContracts = {

  start: contract({
    id: "taking.start",
    method: "POST",
    path: "/api/t/{token}/start",
    caller: "recipient",
    params: token,
    status: 200,
    response: attemptView,
    docs: {
      tag: "Taking a test",
      summary: "Start the test",
      description:
        "The Start button of the recipient's page: the status becomes `started` and the clock starts (opening the link never does, so " +
        "mail scanners that fetch links start nothing). The deadline is fixed now: start + time_limit_minutes or closes_at, whichever " +
        "comes first; at the deadline the attempt is submitted with the answers given, by the server. Idempotent: a started or " +
        "completed recipient is answered as they stand. Before opens_at or from closes_at on → 409.",
      errors: [409],
    },
  }),

  saveAnswer: contract({
    id: "taking.answer",
    method: "PUT",
    path: "/api/t/{token}/answers",
    caller: "recipient",
    params: token,
    body: answerInput,
    status: 200,
    response: answerSaved,
    docs: {
      tag: "Taking a test",
      summary: "Save one answer",
      description:
        "Saves one answer as it is chosen (the last one given for a question counts). `option` is the position as this recipient's page " +
        "shows it; the server maps it to the question's option. Before Start, after submission, or from the deadline on → 409.",
      errors: [409],
    },
  }),

  submit: contract({
    id: "taking.submit",
    method: "POST",
    path: "/api/t/{token}/submit",
    caller: "recipient",
    params: token,
    status: 200,
    response: resultView,
    docs: {
      tag: "Taking a test",
      summary: "Submit the test",
      description:
        "Every question must be answered (422 lists the unanswered ones) — except from the deadline on, when the attempt is submitted " +
        "with the answers given (unanswered ones count as wrong). Before Start → 409. Submitting again answers the same result and changes nothing.",
      errors: [409],
    },
  }),
};
