import { contract } from "@/lib/kernel/contract";
import { answerInput, answerSaved, attemptView, resultView } from "@/lib/certification/tests/schemas";
import { token } from "@/lib/certification/tests/contracts";
import { integrityEventsInput } from "@/lib/certification/integrity/schemas";

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
        "completed recipient is answered as they stand. Before opens_at or from closes_at on → 409. With the test's `record_integrity`, the " +
        "address and browser of the call that starts the attempt join its integrity record.",
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
        "shows it; the server maps it to the question's option. A multiple-response question takes `options` instead: exactly as many " +
        "positions as it asks to choose, none twice (scored all or nothing); a wrong count, a repeat, a position out of range, or the field " +
        "that does not fit the question's type → 422 naming it. Before Start, after submission, or from the deadline on → 409.",
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
        "with the answers given (unanswered ones count as wrong). Before Start → 409. Submitting again answers the same result and changes nothing. " +
        "With the test's `record_integrity`, the address and browser of the call that completes the attempt join its integrity record.",
      errors: [409],
    },
  }),

  events: contract({
    id: "taking.events",
    method: "POST",
    path: "/api/t/{token}/events",
    caller: "recipient",
    params: token,
    body: integrityEventsInput,
    // 50 events are about 2 KB.
    maxBodyBytes: 16_384,
    status: 204,
    docs: {
      tag: "Taking a test",
      summary: "Record what the page saw",
      description:
        "Not in the specification (additive): the integrity record of the test's `record_integrity`. The recipient's page posts what it saw — " +
        "`opened` (the request's browser joins the browsers that opened the link), `hidden` with `ms` (the page was hidden, another tab or window; " +
        "a span counts up to 24 h), `copy`, `fullscreen_exit` — in batches of at most 50, also with `navigator.sendBeacon` (any JSON content type, " +
        "or none) when the page closes. Counters only count once started; nothing is recorded for a completed attempt or a test with " +
        "record_integrity false (still 204: the page is told nothing). Counters are capped; nothing else of the attempt changes. 204 with no body.",
    },
  }),
};
