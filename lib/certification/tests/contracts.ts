import { z } from "zod";
import { contract, intParam, textParam } from "@/lib/kernel/contract";
import { pagingQuery } from "@/lib/kernel/paging";
import { addRecipientsInput, createTestInput, recipientView, resendAllInput, resendAllResult, testList, testRecipientsQuery, testView, updateRecipientInput } from "./schemas";

export const code = z.object({ code: textParam("Test", "Test code, e.g. K7Q2M9XR.") });
export const recipient = code.extend({ id: intParam("Recipient") });
export const token = z.object({ token: textParam("Test", "The recipient's personal token (from the link /t/{token}).") });

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
        "never by opening the link. `draw` (additive, default per_test; per_recipient: each recipient their own random set with the same count per " +
        "domain, drawn when they are sent the test) and, per recipient, `extra_time_minutes` (additive, 0–600, default 0: added to their deadline).",
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
    query: testRecipientsQuery,
    status: 200,
    response: testView,
    docs: {
      tag: "Tests",
      summary: "Read a test with its recipients and results",
      description:
        "Every recipient, in id order, as the specification says. For a large test, page them (additive): `recipients_page` (from 1) and " +
        "`recipients_per_page` (1–1000, default 100) return only that page in `recipients`, with `recipients_pagination` (`page`, `per_page`, " +
        "`total`) and `email_problems` (how many of all the recipients' latest e-mails need attention); `started` and `completed` still count every recipient. " +
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
      description:
        "Same rules as creation: e-mailed unless `send_email` is false; within the plan's seats (409). Each recipient may carry `extra_time_minutes` (additive); " +
        "on a per_recipient test each gets their own draw. A test whose closes_at has passed → 409 (nobody could start it any more).",
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

  updateRecipient: contract({
    id: "tests.recipients.update",
    method: "PATCH",
    path: "/api/v1/tests/{code}/recipients/{id}",
    caller: "workspace",
    scope: "cert:write",
    params: recipient,
    body: updateRecipientInput,
    status: 200,
    response: recipientView,
    docs: {
      tag: "Tests",
      summary: "Change a recipient's name or extra time",
      description:
        "Not in the specification (additive). Give `name`, `extra_time_minutes` (0–600, an accommodation) or both; what is not given stays. " +
        "Until the recipient completes: a completed recipient → 409. For a recipient who has started and has a deadline, the deadline moves to " +
        "min(started_at + time_limit_minutes, closes_at) + extra_time_minutes (docs/decisions.md, \"Extra time\"), and the server submits the " +
        "attempt then; a new deadline already past submits it at once, as at a deadline. Answers the recipient as `GET /tests/{code}` shows them.",
      errors: [409],
    },
  }),
};

/**
 * Appended (issue 28): the resend to everyone who has not finished, after every existing
 * operation (lib/registry/routes.ts), so none of those moves in the reference.
 */
export const resendAllContracts = {
  resendAll: contract({
    id: "tests.resend_all",
    method: "POST",
    path: "/api/v1/tests/{code}/resend",
    caller: "workspace",
    scope: "cert:write",
    params: code,
    body: resendAllInput,
    status: 202,
    response: resendAllResult,
    docs: {
      tag: "Tests",
      summary: "Re-send the test to everyone who has not finished",
      description:
        "Not in the specification (additive). What `POST /tests/{code}/recipients/{id}/resend` does for one recipient, for all of them at once: " +
        "the same e-mail with the same personal link, to every recipient who has not completed (`status: not_completed`, the default; the body " +
        "is optional) or only to those who have not started (`status: sent`). Each gets `last_emailed_at` now and an `email_delivery` of queued; " +
        "a link that was handed over (`send_email: false`) and never e-mailed gets its first e-mail, so its `sent_at` is set too. Answers " +
        "`queued` (recipients e-mailed) and `skipped` (the others: completed, or started with `status: sent`). At most one resend to all per " +
        "test every 10 minutes: another one → 429 with Retry-After (also while one is running); one that e-mails nobody is not counted. " +
        "A test whose closes_at has passed → 409.",
      errors: [409],
    },
  }),
};
