import { integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { recipients } from "./tests";

/**
 * What was seen of one attempt (a test's `record_integrity`): recorded by the server at Start
 * and at submit, and by the recipient's page (hidden page, copy, leaving full screen). Never
 * a verdict: the trainer reads it beside the result.
 */
export const attemptIntegrity = pgTable("attempt_integrity", {
  recipientId: integer("recipient_id")
    .primaryKey()
    .references(() => recipients.id, { onDelete: "cascade" }),
  startAddress: text("start_address"),
  startBrowser: text("start_browser"),
  submitAddress: text("submit_address"),
  submitBrowser: text("submit_browser"),
  /** SHA-256 prefixes of the distinct browsers (User-Agent) that opened the link; at most 20 kept. */
  browsers: jsonb("browsers").$type<string[]>().notNull().default([]),
  hiddenCount: integer("hidden_count").notNull().default(0),
  hiddenMs: integer("hidden_ms").notNull().default(0),
  copyCount: integer("copy_count").notNull().default(0),
  fullscreenExits: integer("fullscreen_exits").notNull().default(0),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export type AttemptIntegrity = typeof attemptIntegrity.$inferSelect;
