import { boolean, index, integer, jsonb, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { workspaces } from "./workspaces";
import { attemptStates, deliveryStatuses, webhookServices } from "./statuses";

export { attemptStates, deliveryStatuses, webhookServices };

export type WebhookService = (typeof webhookServices)[number];

/**
 * An address that receives signed events of one service: `competition` endpoints (the
 * /api/v1/webhooks surface) get the competition events they subscribed to (`events` empty =
 * all of them); `certification` endpoints (test results, registered in the dashboard) get
 * `test.completed` only.
 */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    events: text("events").array().notNull().default([]),
    /** The signing secret, sealed with the application key (lib/platform/security/sealing.ts); opened to sign each delivery. */
    secretSealed: text("secret_sealed").notNull(),
    service: text("service").$type<WebhookService>().notNull().default("competition"),
    source: text("source").$type<"api" | "dashboard">().notNull(),
    /** False: the endpoint receives nothing; events meanwhile are recorded as `not_sent` deliveries. */
    enabled: boolean("enabled").notNull().default(true),
    disabledAt: timestamp("disabled_at", { withTimezone: true }),
    /** Why it was disabled: by its owner (`manual`) or by the service after days of nothing but failures (`failing`). */
    disabledReason: text("disabled_reason").$type<"manual" | "failing">(),
    /** The secret before the last rotation, sealed; it signs deliveries beside the new one until `previous_secret_expires_at`. */
    previousSecretSealed: text("previous_secret_sealed"),
    previousSecretExpiresAt: timestamp("previous_secret_expires_at", { withTimezone: true }),
    /** When the current run of failed deliveries began (null after a success): endpoint health. */
    failingSince: timestamp("failing_since", { withTimezone: true }),
    /** When the owner was last e-mailed that the endpoint fails (at most once a day). */
    healthMailedAt: timestamp("health_mailed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("webhook_endpoints_workspace_idx").on(t.workspaceId, t.createdAt)],
);

/** Something that happened, written in the same transaction as the change that caused it. */
export const events = pgTable(
  "events",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("events_workspace_idx").on(t.workspaceId, t.createdAt)],
);

export type DeliveryStatus = (typeof deliveryStatuses)[number];

/**
 * One event to one endpoint: the outbox row the executors claim. `locked_until` is the
 * lease of the worker running an attempt; `handed_off_at` marks rows given to Inngest.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull(),
    eventId: text("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    endpointId: text("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    status: text("status").$type<DeliveryStatus>().notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    handedOffAt: timestamp("handed_off_at", { withTimezone: true }),
    redeliveryOf: text("redelivery_of"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp("completed_at", { withTimezone: true }),
  },
  (t) => [
    index("webhook_deliveries_due_idx").on(t.status, t.nextAttemptAt),
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.createdAt),
    index("webhook_deliveries_endpoint_status_idx").on(t.endpointId, t.status, t.createdAt),
  ],
);

export type AttemptState = (typeof attemptStates)[number];

/**
 * Every attempt of a delivery. The row is written (`in_flight`) before the POST, so an
 * attempt whose worker died mid-call still counts; `completed` holds the receiver's answer;
 * `interrupted` is an in-flight attempt found by the next worker (no response recorded).
 */
export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: serial("id").primaryKey(),
    deliveryId: text("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    number: integer("number").notNull(),
    state: text("state").$type<AttemptState>().notNull().default("completed"),
    /** False until a completed attempt got a 2xx. */
    ok: boolean("ok").notNull(),
    statusCode: integer("status_code"),
    error: text("error"),
    responseExcerpt: text("response_excerpt").notNull().default(""),
    durationMs: integer("duration_ms").notNull(),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("webhook_attempts_delivery_idx").on(t.deliveryId, t.number)],
);

export type WebhookEndpoint = typeof webhookEndpoints.$inferSelect;
export type Event = typeof events.$inferSelect;
export type WebhookDelivery = typeof webhookDeliveries.$inferSelect;
export type WebhookAttempt = typeof webhookAttempts.$inferSelect;
