import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { transactionWithRetry } from "@/db/transaction";
import { recipients } from "@/db/schema";
import { scheduleStep } from "@/lib/certification/steps";
import type { RecipientView, UpdateRecipientInput } from "@/lib/certification/tests/schemas";
import { deadlineFor } from "@/lib/certification/tests/settings";
import { findTest, lockUncompletedRecipient, recipientViewIn } from "@/lib/certification/tests/tests";
import { submitAtDeadline } from "./taking";

/**
 * PATCH /tests/{code}/recipients/{id}: a recipient's name and extra time, until they complete
 * (then 409). Under the recipient's row lock — the lock the deadline step and a submit take —
 * so a change and a completion never cross. For a started attempt with a deadline, the
 * deadline is recomputed from its start (deadlineFor: the limit or closes_at, then the extra
 * time) and a deadline step is scheduled for it; the step of the old deadline, when it comes
 * early, does nothing (submitAtDeadline). A new deadline already past submits the attempt at once, at that
 * deadline, as the step would have, and the answer shows it completed. Answers save against the row's
 * deadline (taking_save_answer), so they follow the change at once.
 */
export async function updateRecipient(db: Db, workspaceId: string, code: string, recipientId: number, body: UpdateRecipientInput): Promise<RecipientView> {
  const test = await findTest(db, workspaceId, code);
  return transactionWithRetry(db, async (tx) => {
    const recipient = await lockUncompletedRecipient(tx, test.id, recipientId, (email) => `${email} has already completed this test: their name and extra time can no longer change.`);
    const extraTimeMinutes = body.extra_time_minutes ?? recipient.extraTimeMinutes;
    const deadline = recipient.status === "started" && recipient.startedAt ? deadlineFor(test, recipient.startedAt, extraTimeMinutes) : recipient.deadlineAt;
    const [updated] = await tx
      .update(recipients)
      .set({ name: body.name ?? recipient.name, extraTimeMinutes, deadlineAt: deadline })
      .where(eq(recipients.id, recipient.id))
      .returning();
    if (!deadline || deadline.getTime() === recipient.deadlineAt?.getTime()) return recipientViewIn(tx, updated);
    if (deadline.getTime() > Date.now()) {
      await scheduleStep(tx, test.workspaceId, "test.deadline", { recipientId: recipient.id }, deadline);
      return recipientViewIn(tx, updated);
    }
    // The new deadline has already passed: the attempt is submitted now, at that deadline, as the
    // deadline step would (in this transaction, under the same lock), and the answer shows it completed.
    await submitAtDeadline(tx, recipient.id);
    const [completed] = await tx.select().from(recipients).where(eq(recipients.id, recipient.id));
    return recipientViewIn(tx, completed);
  });
}
