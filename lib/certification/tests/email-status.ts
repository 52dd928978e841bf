import { desc, eq, inArray, sql, type SQLWrapper } from "drizzle-orm";
import type { Db } from "@/db";
import { emailMessages, recipients, type EmailMessage } from "@/db/schema";
import type { EmailDeliveryView } from "./schemas";

const NOT_SENT: EmailDeliveryView = { status: "not_sent", detail: null, updated_at: null };

type MessageState = Pick<EmailMessage, "status" | "lastError" | "deliveryStatus" | "deliveryDetail" | "deliveryUpdatedAt" | "sentAt" | "createdAt">;

/** The view of one message (undefined: nothing was e-mailed). */
export function emailDeliveryOf(message: MessageState | undefined): EmailDeliveryView {
  if (!message) return NOT_SENT;
  switch (message.status) {
    case "queued":
      return { status: "queued", detail: message.lastError ?? null, updated_at: message.createdAt.toISOString() };
    case "failed":
    case "dropped":
      return { status: message.status, detail: message.lastError ?? null, updated_at: null };
    case "sent":
      if (message.deliveryStatus) {
        return { status: message.deliveryStatus, detail: message.deliveryDetail ?? null, updated_at: message.deliveryUpdatedAt?.toISOString() ?? null };
      }
      return { status: "sent", detail: null, updated_at: message.sentAt?.toISOString() ?? null };
  }
}

const messageState = {
  status: emailMessages.status,
  lastError: emailMessages.lastError,
  deliveryStatus: emailMessages.deliveryStatus,
  deliveryDetail: emailMessages.deliveryDetail,
  deliveryUpdatedAt: emailMessages.deliveryUpdatedAt,
  sentAt: emailMessages.sentAt,
  createdAt: emailMessages.createdAt,
};

/**
 * The latest e-mail of each given recipient (`"recipient"`) or class invitation
 * (`"invitation"`), in one query (`distinct on`, served by the (owner, created_at) index).
 * Owners without any e-mail are absent: `emailDeliveryOf(undefined)` is `not_sent`. `ids`: a
 * list, or a subquery of ids (a whole test's recipients, without thousands of parameters).
 */
export async function latestEmailDeliveries(db: Db, owner: "recipient" | "invitation", ids: number[] | SQLWrapper): Promise<Map<number, EmailDeliveryView>> {
  const result = new Map<number, EmailDeliveryView>();
  if (Array.isArray(ids) && ids.length === 0) return result;
  const column = owner === "recipient" ? emailMessages.recipientId : emailMessages.invitationId;
  const rows = await db
    .selectDistinctOn([column], { owner: column, ...messageState })
    .from(emailMessages)
    .where(inArray(column, Array.isArray(ids) ? [...new Set(ids)] : ids))
    .orderBy(column, desc(emailMessages.createdAt), desc(emailMessages.id));
  for (const row of rows) if (row.owner !== null) result.set(row.owner, emailDeliveryOf(row));
  return result;
}

/** The view for one owner from a map built by `latestEmailDeliveries`. */
export function deliveryFor(map: Map<number, EmailDeliveryView>, id: number): EmailDeliveryView {
  return map.get(id) ?? NOT_SENT;
}

/**
 * How many of a test's recipients' latest e-mails need the trainer (`emailProblemStatuses`:
 * bounced, complained, failed, dropped), counted by the database: the count a paged test view
 * shows above its page (emailDeliveryOf maps a sent message to its delivery status, the
 * others to their own status).
 */
export async function emailProblemCount(db: Db, testId: number): Promise<number> {
  const latest = db
    .selectDistinctOn([emailMessages.recipientId], { status: emailMessages.status, deliveryStatus: emailMessages.deliveryStatus })
    .from(emailMessages)
    .where(inArray(emailMessages.recipientId, db.select({ id: recipients.id }).from(recipients).where(eq(recipients.testId, testId))))
    .orderBy(emailMessages.recipientId, desc(emailMessages.createdAt), desc(emailMessages.id))
    .as("latest");
  const [{ problems }] = await db
    .select({ problems: sql<number>`count(*)::int` })
    .from(latest)
    .where(
      sql`${latest.status} in ('failed', 'dropped') or (${latest.status} = 'sent' and ${latest.deliveryStatus} in ('bounced', 'complained'))`,
    );
  return Number(problems);
}
