import { index, integer, pgTable, real, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { recipients, tests } from "./tests";
import { workspaces } from "./workspaces";

/**
 * A certificate issued on a pass (a test's `certificate`): the facts as they were at issue,
 * frozen, so later renames change nothing already issued. `id` is the public, unguessable id
 * of /certificates/{id}; it carries no e-mail address.
 */
export const certificates = pgTable(
  "certificates",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    testId: integer("test_id")
      .notNull()
      .references(() => tests.id, { onDelete: "cascade" }),
    recipientId: integer("recipient_id")
      .notNull()
      .references(() => recipients.id, { onDelete: "cascade" }),
    recipientName: text("recipient_name").notNull(),
    testName: text("test_name").notNull(),
    certificationName: text("certification_name").notNull(),
    score: real("score").notNull(),
    organisation: text("organisation").notNull(),
    signer: text("signer").notNull().default(""),
    issuedAt: timestamp("issued_at", { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("certificates_recipient_idx").on(t.recipientId), index("certificates_workspace_idx").on(t.workspaceId)],
);

export type Certificate = typeof certificates.$inferSelect;
