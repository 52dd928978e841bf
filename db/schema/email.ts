import { index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

export const emailTransports = ["resend", "mailbox"] as const;
export type EmailTransport = (typeof emailTransports)[number];
export const emailStatuses = ["queued", "sent", "dropped"] as const;
export type EmailStatus = (typeof emailStatuses)[number];

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
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
  },
  (t) => [
    index("email_messages_to_idx").on(t.to, t.createdAt),
    index("email_messages_created_idx").on(t.createdAt),
    index("email_messages_due_idx").on(t.status, t.nextAttemptAt),
  ],
);

export type EmailMessage = typeof emailMessages.$inferSelect;
