import type { StepHandlers } from "@/lib/outbox/steps";
import { sendReminders, sendResultEmail } from "./follow-up";
import { submitAtDeadline } from "./taking";

/** The certification service's scheduled steps, run by whichever executor is configured (lib/jobs/handlers.ts). */
export const testStepHandlers = {
  "test.deadline": (db, { recipientId }) => submitAtDeadline(db, recipientId),
  "test.reminder": async (db, { testId }) => {
    await sendReminders(db, testId);
  },
  "test.result_email": async (db, { recipientId }) => {
    await sendResultEmail(db, recipientId);
  },
} satisfies Partial<StepHandlers>;
