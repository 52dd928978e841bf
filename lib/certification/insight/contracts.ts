import { contract } from "@/lib/kernel/contract";
import { answerSheetView, testAnalysisView } from "./schemas";
import { code, recipient } from "@/lib/certification/tests/contracts";

export const insightContracts = {

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
        "status, so an attempt in progress can be followed. A recipient of another test → 404. `integrity` (additive): the attempt's integrity record " +
        "(the test's `record_integrity`): address and browser at start and submit, browsers that opened the link, hidden page, copy attempts, " +
        "leaving full screen and `flagged`; null when nothing was recorded.",
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
        "One row per recipient: e-mail, name, status, dates, overall percent, correct answers, passed (true/false against the pass mark; empty without one) and the percent of each domain; " +
        "then the integrity record: browsers, hidden_count, hidden_seconds, copy_attempts, fullscreen_exits, address_changed (empty without a record); " +
        "last, email_delivery: the latest e-mail's status (not_sent: the link was handed over, not e-mailed; sent_at is then empty).",
    },
  }),
};
