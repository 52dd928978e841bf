import { z } from "zod";
import { documentRoute } from "@/lib/api/openapi";
import { pagingQuery } from "@/lib/api/paging";
import { addRecipientsInput, createTestInput, recipientView, testList, testView } from "./schemas";

const codeParams = z.object({ code: z.string().meta({ description: "Test code, e.g. K7Q2M9XR." }) });

documentRoute({
  method: "get",
  path: "/tests",
  tag: "Tests",
  summary: "List tests",
  description: "The workspace's tests, newest first, each with its recipient, started and completed counts.",
  query: pagingQuery,
  success: { status: 200, description: "A page of tests.", schema: testList },
});

documentRoute({
  method: "post",
  path: "/tests",
  tag: "Tests",
  summary: "Create a test and send it",
  description:
    "Give `domains` and `questions` (split in equal parts, the remainder one each to the first domains) or `questions_per_domain` " +
    "(`[{ domain_id, questions }]`); and `recipients` (`[{ email, name? }]`) or `class_id` (its joined students), exactly one of them. " +
    "Questions are drawn once and frozen; each recipient sees them in a shuffled order. `send_email: false` sends no e-mail; the " +
    "personal links are in the response either way. Every wrong field is listed (422); beyond the plan's seats → 409. " +
    "Counts against the 30-creations-per-60-s limit.",
  body: createTestInput,
  errors: [409],
  success: { status: 201, description: "The created test with its recipients and their links.", schema: testView },
});

documentRoute({
  method: "get",
  path: "/tests/{code}",
  tag: "Tests",
  summary: "Read a test with its recipients and results",
  description:
    "Each recipient also carries `email_delivery` (not in the specification, additive): the status of the latest e-mail to them " +
    "(queued, sent, delivered, delivery_delayed, bounced, complained, failed, dropped, or not_sent), its reason (a bounce's message, " +
    "the provider's refusal) and when. Delivery statuses come from Resend's signed webhooks (docs/webhooks.md).",
  params: codeParams,
  success: { status: 200, description: "The test.", schema: testView },
});

documentRoute({
  method: "post",
  path: "/tests/{code}/recipients",
  tag: "Tests",
  summary: "Send the test to more people",
  description: "Same rules as creation: e-mailed unless `send_email` is false; within the plan's seats (409).",
  params: codeParams,
  body: addRecipientsInput,
  errors: [409],
  success: { status: 201, description: "The new recipients.", schema: z.object({ data: z.array(recipientView) }) },
});

documentRoute({
  method: "post",
  path: "/tests/{code}/recipients/{id}/resend",
  tag: "Tests",
  summary: "Re-send one recipient's e-mail",
  description: "A fresh e-mail with the same personal link. A recipient who completed the test → 409.",
  params: codeParams.extend({ id: z.string().meta({ description: "Recipient id (integer)." }) }),
  errors: [409],
  success: { status: 202, description: "The e-mail is queued.", schema: recipientView },
});
