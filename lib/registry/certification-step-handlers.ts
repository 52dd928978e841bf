import type { StepHandlers } from "@/lib/platform/pipeline/channels/steps/steps";
import type { testSteps } from "@/lib/certification/steps";
import { sendReminders, sendResultEmail } from "@/lib/certification/tests/follow-up";
import { submitAtDeadline } from "@/lib/certification/taking/taking";

/** The certification service's scheduled steps, run by whichever executor is configured (lib/registry/steps.ts). */
export const testStepHandlers = {
  "test.deadline": (db, { recipientId }) => submitAtDeadline(db, recipientId),
  "test.reminder": async (db, { testId }) => {
    await sendReminders(db, testId);
  },
  "test.result_email": async (db, { recipientId }) => {
    await sendResultEmail(db, recipientId);
  },
} satisfies StepHandlers<typeof testSteps>;
