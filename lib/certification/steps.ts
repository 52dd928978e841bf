import { z } from "zod";
import { step, type StepCatalog } from "@/lib/platform/pipeline/channels/steps/catalog";
import { stepScheduler } from "@/lib/platform/pipeline/channels/steps/steps";

const rowId = z.number().int().positive();

/**
 * The certification service's scheduled steps and the schema of each payload: `scheduleStep`
 * validates a payload before it is written, the executor again before its handler
 * (./step-handlers.ts) runs. The kinds are stored in the rows: renaming one strands the steps
 * already scheduled under it.
 */
export const testSteps = {
  "test.deadline": step("Submit a recipient's attempt at its deadline (time limit or closes_at) with the answers given.", z.object({ recipientId: rowId })),
  "test.reminder": step("E-mail the one reminder to a test's recipients who have not completed reminder_after_hours after it was e-mailed.", z.object({ testId: rowId })),
  "test.result_email": step("E-mail a recipient who completed their result (send_result), with the answers as show_answers allows.", z.object({ recipientId: rowId })),
} as const satisfies StepCatalog;

/** Schedules one of the certification service's steps in the caller's transaction. */
export const scheduleStep = stepScheduler(testSteps);
