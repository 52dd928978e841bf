import { index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { stepStatuses } from "./statuses";

export { stepStatuses };

export type StepStatus = (typeof stepStatuses)[number];

/**
 * A lifecycle step due at a time (a deployment window closing, an asynchronous deploy):
 * written with the change that schedules it, run by whichever executor is configured.
 */
export const scheduledSteps = pgTable(
  "scheduled_steps",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull(),
    kind: text("kind").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    runAt: timestamp("run_at", { withTimezone: true }).notNull(),
    status: text("status").$type<StepStatus>().notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    handedOffAt: timestamp("handed_off_at", { withTimezone: true }),
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp("completed_at", { withTimezone: true }),
  },
  (t) => [index("scheduled_steps_due_idx").on(t.status, t.runAt)],
);

export type ScheduledStep = typeof scheduledSteps.$inferSelect;
