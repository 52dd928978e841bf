import { and, eq } from "drizzle-orm";
import type { Db } from "@/db";
import { transactionWithRetry } from "@/db/transaction";
import { recipients } from "@/db/schema";
import { conflict, notFound } from "@/lib/kernel/errors";
import { scheduleStep } from "@/lib/certification/steps";
import { deliveryFor, latestEmailDeliveries } from "@/lib/certification/tests/email-status";
import { answeredBy, answeredCounts } from "@/lib/certification/tests/progress";
import { toRecipientView } from "@/lib/certification/tests/recipients";
import type { RecipientView, UpdateRecipientInput } from "@/lib/certification/tests/schemas";
import { deadlineFor } from "@/lib/certification/tests/settings";
import { findTest } from "@/lib/certification/tests/tests";
import { integrityFlagged, integrityRecords } from "@/lib/certification/integrity/summary";

/**
 * PATCH /tests/{code}/recipients/{id}: a recipient's name and extra time, until they complete
 * (then 409). Under the recipient's row lock — the lock the deadline step and a submit take —
 * so a change and a completion never cross. For a started attempt with a deadline, the
 * deadline is recomputed from its start (deadlineFor: the limit or closes_at, then the extra
 * time) and a deadline step is scheduled for it; the step of the old deadline, when it comes
 * early, does nothing (submitAtDeadline). A new deadline already past is due at once: the step
 * submits the attempt at that deadline, as it would have. Answers save against the row's
 * deadline (taking_save_answer), so they follow the change at once.
 */
export async function updateRecipient(db: Db, workspaceId: string, code: string, recipientId: number, body: UpdateRecipientInput): Promise<RecipientView> {
  const test = await findTest(db, workspaceId, code);
  return transactionWithRetry(db, async (tx) => {
    const [recipient] = await tx
      .select()
      .from(recipients)
      .where(and(eq(recipients.id, recipientId), eq(recipients.testId, test.id)))
      .for("update");
    if (!recipient) throw notFound("Recipient");
    if (recipient.status === "completed") throw conflict(`${recipient.email} has already completed this test: their name and extra time can no longer change.`);
    const extraTimeMinutes = body.extra_time_minutes ?? recipient.extraTimeMinutes;
    const deadline = recipient.status === "started" && recipient.startedAt ? deadlineFor(test, recipient.startedAt, extraTimeMinutes) : recipient.deadlineAt;
    const [updated] = await tx
      .update(recipients)
      .set({ name: body.name ?? recipient.name, extraTimeMinutes, deadlineAt: deadline })
      .where(eq(recipients.id, recipient.id))
      .returning();
    if (deadline && deadline.getTime() !== recipient.deadlineAt?.getTime()) {
      await scheduleStep(tx, test.workspaceId, "test.deadline", { recipientId: recipient.id }, deadline);
    }
    const [deliveries, answered, integrity] = await Promise.all([
      latestEmailDeliveries(tx, "recipient", [updated.id]),
      answeredCounts(tx, [updated.id]),
      integrityRecords(tx, [updated.id]),
    ]);
    return toRecipientView(updated, deliveryFor(deliveries, updated.id), answeredBy(answered, updated.id), integrityFlagged(integrity.get(updated.id)));
  });
}
