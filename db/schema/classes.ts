import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "./auth";
import { certifications } from "./certifications";
import { workspaces } from "./workspaces";
import { invitationStatuses } from "./statuses";

export { invitationStatuses };

/** A named group of students, invited by e-mail, for one certification. */
export const classes = pgTable(
  "classes",
  {
    id: serial("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    certificationId: integer("certification_id")
      .notNull()
      .references(() => certifications.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("classes_workspace_idx").on(t.workspaceId, t.createdAt)],
);

export type InvitationStatus = (typeof invitationStatuses)[number];

/**
 * An invitation to a class; once accepted (`joined`) it is the student's membership. Removing
 * a student or cancelling an invitation deletes the row (the seat is free again; tests
 * already sent keep their recipients and results).
 */
export const classInvitations = pgTable(
  "class_invitations",
  {
    id: serial("id").primaryKey(),
    classId: integer("class_id")
      .notNull()
      .references(() => classes.id, { onDelete: "cascade" }),
    workspaceId: text("workspace_id").notNull(),
    email: text("email").notNull(),
    /** The name the trainer gave with the address (`Name <email>`); "" when none. The account's own name wins once joined. */
    name: text("name").notNull().default(""),
    /** SHA-256 (hex) of the invitation's token (`/join/{token}`), and the token sealed (to e-mail it again): never the token itself. */
    tokenHash: text("token_hash").notNull(),
    tokenSealed: text("token_sealed").notNull(),
    status: text("status").$type<InvitationStatus>().notNull().default("pending"),
    studentUserId: text("student_user_id").references(() => users.id, { onDelete: "set null" }),
    invitedAt: timestamp("invited_at", { withTimezone: true }).notNull().defaultNow(),
    lastSentAt: timestamp("last_sent_at", { withTimezone: true }).notNull().defaultNow(),
    joinedAt: timestamp("joined_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("class_invitations_token_hash_idx").on(t.tokenHash),
    uniqueIndex("class_invitations_class_email_idx").on(t.classId, t.email),
    index("class_invitations_workspace_idx").on(t.workspaceId),
    index("class_invitations_student_idx").on(t.studentUserId),
  ],
);

export type Class = typeof classes.$inferSelect;
export type ClassInvitation = typeof classInvitations.$inferSelect;
