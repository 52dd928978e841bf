import { index, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { workspaces } from "./workspaces";

/**
 * API keys: only the SHA-256 of the secret is stored, with a short visible prefix.
 * `scopes` null means full access. The two timestamp arrays are the sliding logs of the
 * rate limiter (all requests; creations), kept on the key row so that one locked row is
 * the atomic section per key (see the `api_key_admit` SQL function).
 */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    prefix: text("prefix").notNull(),
    hash: text("hash").notNull().unique(),
    scopes: text("scopes").array(),
    requestLog: timestamp("request_log", { withTimezone: true }).array().notNull().default([]),
    createLog: timestamp("create_log", { withTimezone: true }).array().notNull().default([]),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [index("api_keys_workspace_idx").on(t.workspaceId, t.createdAt)],
);

export type ApiKey = typeof apiKeys.$inferSelect;
