import { index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { classInvitations } from "./classes";
import { recipients } from "./tests";
import { emailStatuses, emailDeliveryStatuses } from "./statuses";

export { emailStatuses, emailDeliveryStatuses };

export const emailTransports = ["resend", "mailbox"] as const;
export type EmailTransport = (typeof emailTransports)[number];
/**
 * Our side of a message: queued (waiting or retrying), sent (the provider accepted it),
 * failed (the provider refused it for good: an invalid address, an unverified sender; the
 * reason is in last_error), dropped (retried until the retry budget ran out).
 */
export type EmailStatus = (typeof emailStatuses)[number];
/** What the provider reported afterwards, through its signed webhooks. */
export type EmailDeliveryStatus = (typeof emailDeliveryStatuses)[number];

/**
 * Every e-mail the app sends, queued in the same transaction as the change that causes it
 * (an outbox). With Resend it records the provider's id; without it this table is the dev
 * mailbox.
 */
export const emailMessages = pgTable(
  "email_messages",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id"),
    kind: text("kind").notNull(),
    to: text("to").notNull(),
    from: text("from").notNull(),
    subject: text("subject").notNull(),
    html: text("html").notNull(),
    text: text("text").notNull(),
    links: jsonb("links").$type<string[]>().notNull().default([]),
    transport: text("transport").$type<EmailTransport>().notNull(),
    status: text("status").$type<EmailStatus>().notNull().default("queued"),
    attempts: integer("attempts").notNull().default(0),
    /** Outbox fields: when the next try is due, the running worker's lease, the hand-off to Inngest. */
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    handedOffAt: timestamp("handed_off_at", { withTimezone: true }),
    /** The Resend batch this message first went out in: a retry resends exactly that batch, same key. */
    batchKey: text("batch_key"),
    providerId: text("provider_id"),
    lastError: text("last_error"),
    /** The test recipient or class invitation this mail is for, when it is one of theirs. */
    recipientId: integer("recipient_id").references(() => recipients.id, { onDelete: "set null" }),
    invitationId: integer("invitation_id").references(() => classInvitations.id, { onDelete: "set null" }),
    /** The provider's latest word on the message (Resend webhooks), with its detail (a bounce's reason). */
    deliveryStatus: text("delivery_status").$type<EmailDeliveryStatus>(),
    deliveryDetail: text("delivery_detail"),
    deliveryUpdatedAt: timestamp("delivery_updated_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
  },
  (t) => [
    index("email_messages_to_idx").on(t.to, t.createdAt),
    index("email_messages_created_idx").on(t.createdAt),
    index("email_messages_due_idx").on(t.status, t.nextAttemptAt),
    index("email_messages_recipient_idx").on(t.recipientId, t.createdAt),
    index("email_messages_invitation_idx").on(t.invitationId, t.createdAt),
    index("email_messages_provider_idx").on(t.providerId),
  ],
);

export type EmailMessage = typeof emailMessages.$inferSelect;

/**
 * The provider's pace, shared by every instance: each call to the provider first reserves
 * the next free slot (one upsert), so N instances together keep one rate.
 */
export const providerPacing = pgTable("provider_pacing", {
  name: text("name").primaryKey(),
  nextSlotAt: timestamp("next_slot_at", { withTimezone: true }).notNull(),
});
