import { z } from "zod";
import { contract, intParam, textParam } from "@/lib/kernel/contract";
import { pagingQuery } from "@/lib/kernel/paging";
import { answerSheetView, testAnalysisView } from "@/lib/certification/insight/schemas";
import { addRecipientsInput, answerInput, answerSaved, attemptView, createTestInput, recipientView, resultView, testList, testView } from "./schemas";

const code = z.object({ code: textParam("Test", "Test code, e.g. K7Q2M9XR.") });
const recipient = code.extend({ id: intParam("Recipient") });
const token = z.object({ token: textParam("Test", "The recipient's personal token (from the link /t/{token}).") });

/** The certification service's tests: /api/v1 (API key or the dashboard's session), the export, and the recipient's own routes. */
export const testContracts = {
  list: contract({
    id: "tests.list",
    method: "GET",
    path: "/api/v1/tests",
    caller: "workspace",
    scope: "cert:read",
    query: pagingQuery,
    status: 200,
    response: testList,
    docs: {
      tag: "Tests",
      summary: "List tests",
      description:
        "The workspace's tests, newest first, each with its recipient, started and completed counts, and (additive) its `name` and settings " +
        "(`time_limit_minutes`, `opens_at`, `closes_at`, `pass_mark`, `shuffle_options`, `show_answers`, `reminder_after_hours`, `send_result`).",
    },
  }),

  create: contract({
    id: "tests.create",
    method: "POST",
    path: "/api/v1/tests",
    caller: "workspace",
    scope: "cert:write",
    creation: true,
    body: createTestInput,
    status: 201,
    response: testView,
    docs: {
      tag: "Tests",
      summary: "Create a test and send it",
      description:
        "Give `domains` and `questions` (split in equal parts, the remainder one each to the first domains) or `questions_per_domain` " +
        "(`[{ domain_id, questions }]`); and `recipients` (`[{ email, name? }]`) or `class_id` (its joined students), exactly one of them. " +
        "Questions are drawn once and frozen; each recipient sees them in a shuffled order. `send_email: false` sends no e-mail; the " +
        "personal links are in the response either way. Every wrong field is listed (422); beyond the plan's seats → 409. " +
        "Counts against the 30-creations-per-60-s limit. Settings (additive, all optional, fixed at creation): `name` (default " +
        '"{certification} test"), `time_limit_minutes` (1–600, default null), `opens_at` / `closes_at` (ISO 8601, default null; closes_at ' +
        "after opens_at and in the future), `pass_mark` (0–100, default null), `shuffle_options` (default true), `show_answers` " +
        "(after_submit, after_close — needs closes_at — or never; default after_submit), `reminder_after_hours` (1–720, default null; " +
        "before closes_at), `send_result` (default false). A recipient starts with the Start button of their page (`POST /api/t/{token}/start`), " +
        "never by opening the link.",
      errors: [409],
    },
  }),

  get: contract({
    id: "tests.get",
    method: "GET",
    path: "/api/v1/tests/{code}",
    caller: "workspace",
    scope: "cert:read",
    params: code,
    status: 200,
    response: testView,
    docs: {
      tag: "Tests",
      summary: "Read a test with its recipients and results",
      description:
        "The test's `name` and settings come with it (additive). Each completed recipient's `result` carries `passed` (additive: against " +
        "`pass_mark`; null without one). `status` stays `sent` until the recipient presses Start on their page (opening the link " +
        "does not start the test). " +
        "Each recipient also carries `email_delivery` (not in the specification, additive): the status of the latest e-mail to them " +
        "(queued, sent, delivered, delivery_delayed, bounced, complained, failed, dropped, or not_sent), its reason (a bounce's message, " +
        "the provider's refusal) and when. Delivery statuses come from Resend's signed webhooks (docs/webhooks.md).",
    },
  }),

  addRecipients: contract({
    id: "tests.recipients.add",
    method: "POST",
    path: "/api/v1/tests/{code}/recipients",
    caller: "workspace",
    scope: "cert:write",
    params: code,
    body: addRecipientsInput,
    status: 201,
    response: z.object({ data: z.array(recipientView) }),
    docs: {
      tag: "Tests",
      summary: "Send the test to more people",
      description: "Same rules as creation: e-mailed unless `send_email` is false; within the plan's seats (409).",
      errors: [409],
    },
  }),

  resend: contract({
    id: "tests.recipients.resend",
    method: "POST",
    path: "/api/v1/tests/{code}/recipients/{id}/resend",
    caller: "workspace",
    scope: "cert:write",
    params: recipient,
    status: 202,
    response: recipientView,
    docs: {
      tag: "Tests",
      summary: "Re-send one recipient's e-mail",
      description: "A fresh e-mail with the same personal link. A recipient who completed the test → 409.",
      errors: [409],
    },
  }),

  answers: contract({
    id: "tests.recipients.answers",
    method: "GET",
    path: "/api/v1/tests/{code}/recipients/{id}/answers",
    caller: "workspace",
    scope: "cert:read",
    params: recipient,
    status: 200,
    response: answerSheetView,
    docs: {
      tag: "Tests",
      summary: "Read one recipient's answer sheet",
      description:
        "Not in the specification (additive). Every question in the recipient's own order, with its domain, prompt and options, the option chosen " +
        "(`chosen`, 0-based; null: not answered), the right one (`correct_option`), whether it is right and when it was answered. Readable at any " +
        "status, so an attempt in progress can be followed. A recipient of another test → 404.",
    },
  }),

  analysis: contract({
    id: "tests.analysis",
    method: "GET",
    path: "/api/v1/tests/{code}/analysis",
    caller: "workspace",
    scope: "cert:read",
    params: code,
    status: 200,
    response: testAnalysisView,
    docs: {
      tag: "Tests",
      summary: "Analyse the questions of a test",
      description:
        "Not in the specification (additive). Over the recipients who completed the test: per question how many answered, the difficulty " +
        "(`percent_correct`), the discrimination (point-biserial correlation between being right on the question and the total score; null " +
        "with fewer than 2 completed recipients or no variance), how often each option was chosen, and flags — `hard` below 30% right, " +
        "`low_discrimination` below 0.2; a wrong option chosen more often than the right one (`chosen_over_correct`) or never chosen " +
        "(`never_chosen`). Per domain, the average percent. Definitions: docs/certification-api.md.",
    },
  }),

  exportCsv: contract({
    id: "tests.export",
    method: "GET",
    path: "/api/app/tests/{code}/export",
    caller: "session",
    params: code,
    status: 200,
    produces: "text/csv",
    docs: {
      tag: "Dashboard: tests",
      summary: "Download the results as CSV",
      description:
        "One row per recipient: e-mail, name, status, dates, overall percent, correct answers, passed (true/false against the pass mark; empty without one) and the percent of each domain.",
    },
  }),

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
